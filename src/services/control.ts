/**
 * The control plane's rules (D11), shared by /_emulator, the dashboard and the CLI:
 * reset, seed, trigger, the event log and the DLQ. No HTTP in here.
 */
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { DeliveryView } from '../schemas/webhooks.js';
import type { TriggerInput } from '../schemas/control.js';
import { Fixture } from '../schemas/fixture.js';
import type { DeliveryRecord, EventRecord, TenantRecord } from '../store/records.js';
import { sampleEventData } from '../webhooks/event-types.js';
import { emitEvent } from './events.js';
import { DEFAULT_FIXTURE_PATH, FixtureError, insertSeed, loadFixtureFile, prepareSeed, seedFixture } from './seed.js';
import { deliveryView } from './webhooks.js';

/** A tenant as the control plane reports what it seeded. */
export interface SeededTenant {
  id: string;
  name: string;
  plan: string;
}

const seeded = (tenants: TenantRecord[]): SeededTenant[] => tenants.map(({ id, name, plan }) => ({ id, name, plan }));

/**
 * Empties the store and seeds the runtime's fixture again, in one durable write (so a crash
 * leaves the old store or the new one). The fixture file is read afresh, so edits to it count.
 */
export async function resetStore(rt: Runtime): Promise<{ tenants: SeededTenant[] }> {
  let fixture;
  try {
    fixture = await loadFixtureFile(rt.options.seedFile ?? DEFAULT_FIXTURE_PATH);
  } catch (error) {
    // The store is left as it was: a reset that cannot seed must not leave it empty.
    if (error instanceof FixtureError) throw new ApiError('conflict', `cannot reset: ${error.message.split('\n').join(' ')}`);
    throw error;
  }
  const prepared = await prepareSeed(rt, fixture);
  await rt.store.write(() => {
    rt.store.clear();
    insertSeed(rt, prepared);
  });
  return { tenants: seeded(prepared.map((entry) => entry.tenant)) };
}

/** Adds a fixture document to the store; a bad one is 400 with a detail per field, a collision 409. */
export async function seedDocument(rt: Runtime, raw: unknown): Promise<{ tenants: SeededTenant[] }> {
  const parsed = Fixture.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message, in: 'body' }));
    throw new ApiError('validation_error', 'The fixture is not valid', details);
  }
  try {
    return { tenants: seeded(await seedFixture(rt, parsed.data)) };
  } catch (error) {
    if (error instanceof FixtureError) throw new ApiError('conflict', error.message);
    throw error;
  }
}

/** The tenant an action without a tenant means: the first one seeded. */
export function defaultTenant(rt: Runtime): TenantRecord {
  const first = rt.store.all('tenants').next();
  if (first.done) throw new ApiError('conflict', 'the store holds no tenant; seed one first (POST /_emulator/seed or /_emulator/reset)');
  return first.value;
}

export interface TriggerResult {
  event: EventRecord;
  deliveries: DeliveryView[];
}

/**
 * Records one event of any type (`svc trigger`) with sample data, as if the action had
 * happened, and answers it with its deliveries after their first attempt.
 */
export async function triggerEvent(rt: Runtime, input: TriggerInput): Promise<TriggerResult> {
  const tenant = input.tenantId === undefined ? defaultTenant(rt) : rt.store.get('tenants', input.tenantId);
  if (!tenant) throw notFound('tenant', input.tenantId);
  const event = await rt.store.write(() => emitEvent(rt, tenant.id, input.type, input.data ?? sampleEventData(input.type)));
  const planned = rt.store.ofTenant('deliveries', tenant.id).filter((delivery) => delivery.eventId === event.id);
  const deliveries = await Promise.all(planned.map((delivery) => rt.dispatcher.attemptNow(delivery.id)));
  return { event, deliveries: deliveries.map(deliveryView) };
}

export interface EventFilter {
  type?: string | undefined;
  tenant?: string | undefined;
}

/** The event log, newest first, optionally of one type and one tenant. */
export function eventLog(rt: Runtime, filter: EventFilter = {}): EventRecord[] {
  const source = filter.tenant === undefined ? [...rt.store.all('events')] : rt.store.ofTenant('events', filter.tenant);
  return source.filter((event) => filter.type === undefined || event.type === filter.type).reverse();
}

/** Every dead delivery (the DLQ), the latest to die first. */
export function deadLetters(rt: Runtime): DeliveryRecord[] {
  return [...rt.store.all('deliveries')]
    .filter((delivery) => delivery.status === 'dead')
    .sort((a, b) => (a.updatedAt === b.updatedAt ? 0 : a.updatedAt < b.updatedAt ? 1 : -1));
}

/** Whether a delivery's webhook was deleted (it is kept for its history, and cannot be retried). */
export function isOrphaned(delivery: DeliveryRecord): boolean {
  return typeof delivery.orphanedAt === 'string';
}

/**
 * A delivery as the control plane shows it: with its tenant, since it spans tenants, and
 * `webhookDeleted` when its webhook is gone.
 */
export function controlDeliveryView(delivery: DeliveryRecord): DeliveryView & { tenantId: string; webhookDeleted: boolean } {
  return { ...deliveryView(delivery), tenantId: delivery.tenantId, webhookDeleted: isOrphaned(delivery) };
}

/** Retries every delivery of the DLQ that still has a webhook, one after another; answers each result. */
export async function retryAllDead(rt: Runtime): Promise<DeliveryRecord[]> {
  const results: DeliveryRecord[] = [];
  for (const delivery of deadLetters(rt)) if (!isOrphaned(delivery)) results.push(await rt.dispatcher.retry(null, delivery.id));
  return results;
}
