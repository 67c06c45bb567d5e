/**
 * The typed client's calls for test runs, under `client.emulator`: a tenant per test worker,
 * the request journal, and waiting for an event or a webhook delivery without a polling loop
 * in every test. Made from the control plane's derived methods (control.ts), so they work
 * against svc, not against another deployment of the API.
 */
import type { z } from '@hono/zod-openapi';
import type { ControlOperations } from '../operations/control-plane.js';
import type { ControlDelivery, RecordedEvent } from '../schemas/control.js';
import type { JournalEntry, TestTenant } from '../schemas/harness.js';
import type { DeliveryStatus } from '../schemas/webhooks.js';
import { isEventType } from '../schemas/words.js';
import type { OperationCalls } from './operations.js';
import type { CallOptions } from './transport.js';
import { unwrap } from './transport.js';

export type { ControlDelivery, JournalEntry, RecordedEvent, TestTenant };

export interface RequestFilter {
  tenant?: string;
  method?: string;
  /** `/v1/users`, or a prefix ending in `*`. */
  path?: string;
  /** `201`, or a class such as `4xx`. */
  status?: string | number;
  requestId?: string;
  after?: number;
  limit?: number;
}

export interface WaitOptions {
  /** The tenant to look in (a test worker's own); every tenant when left out. */
  tenant?: string;
  type?: string;
  /** A deep partial match on the event's `data` (objects by their given fields, the rest by equality). */
  match?: Record<string, unknown>;
  /** Real milliseconds to wait (default 10 s), then the wait fails with a TimeoutError naming what it waited for. */
  timeoutMs?: number;
  /** Real milliseconds between looks (default 50). */
  intervalMs?: number;
}

/** What waitForEvent answers: the event it found. */
export interface EventWaited {
  event: RecordedEvent;
}

/** What waitForDelivery answers: the same `event` as waitForEvent, and its delivery. */
export interface DeliveryWaited extends EventWaited {
  delivery: ControlDelivery;
}

/** Whether `actual` holds everything `expected` says: objects field by field, arrays and the rest by equality. */
export function matches(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return JSON.stringify(actual) === JSON.stringify(expected);
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([name, value]) => matches((actual as Record<string, unknown>)[name], value));
}

/** Looks with `find` until it answers something, or fails after the timeout saying what it waited for. */
async function until<T>(what: string, options: WaitOptions, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (performance.now() >= deadline) {
      const error = new Error(`waited ${options.timeoutMs ?? 10_000} ms for ${what}; none came`);
      error.name = 'TimeoutError';
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

function describeWait(noun: string, options: WaitOptions): string {
  const parts = [options.type ?? 'any type', options.tenant === undefined ? 'any tenant' : `tenant ${options.tenant}`];
  if (options.match !== undefined) parts.push(`data matching ${JSON.stringify(options.match)}`);
  return `${noun} (${parts.join(', ')})`;
}

/** The harness's calls made from the control plane's derived methods: filters as a test names them, and waits. */
export function harnessCalls(calls: OperationCalls<ControlOperations>) {
  const events = async (tenant: string | undefined, type: string | undefined): Promise<RecordedEvent[]> => {
    // The server refuses an unknown type too; said here, the wait fails at once rather than at its timeout.
    if (type !== undefined && !isEventType(type)) throw new Error(`cannot wait for "${type}": not an event type`);
    return unwrap(await calls.listEvents({ tenant, type, limit: 1000 })).data;
  };
  const deliveries = (filter: { tenant?: string; eventType?: string; eventId?: string; status?: z.infer<typeof DeliveryStatus> } = {}, extra?: CallOptions) =>
    calls.listAllDeliveries({ tenant: filter.tenant, event_type: filter.eventType, event_id: filter.eventId, status: filter.status }, extra);

  const waitForEvent = async (options: WaitOptions = {}): Promise<EventWaited> => ({
    event: await until(describeWait('an event', options), options, async () =>
      (await events(options.tenant, options.type)).find((event) => options.match === undefined || matches(event.data, options.match)),
    ),
  });

  return {
    /** A tenant per test worker: made from the fixture's template (or a plan), reset alone, removed. */
    tenants: {
      list: calls.listTestTenants,
      create: (body: Parameters<typeof calls.createTestTenant>[0] = {}, extra?: CallOptions) => calls.createTestTenant(body, extra),
      reset: (tenantId: string, body: Parameters<typeof calls.resetTestTenant>[1] = {}, extra?: CallOptions) => calls.resetTestTenant(tenantId, body, extra),
      remove: calls.removeTestTenant,
    },
    /** The request journal, oldest first; with `limit`, the newest `limit` entries. */
    requests: (filter: RequestFilter = {}, extra?: CallOptions) =>
      calls.listJournal(
        {
          tenant: filter.tenant,
          method: filter.method,
          path: filter.path,
          status: filter.status === undefined ? undefined : String(filter.status),
          request_id: filter.requestId,
          after: filter.after,
          limit: filter.limit,
        },
        extra,
      ),
    clearRequests: (tenant?: string, extra?: CallOptions) => calls.clearJournal({ tenant }, extra),
    /** Every delivery, of one tenant, event type, event or status. */
    deliveries,
    /** Sends an event again (same event id) to its webhooks, or every event since a time (ISO, or a duration such as `10m`). */
    redeliver: calls.redeliverEvents,
    /** The store, or one tenant, as a fixture that `svc serve --seed` and `svc seed` take back. */
    export: (tenant?: string, extra?: CallOptions) => calls.exportFixture({ tenant }, extra),
    /**
     * Waits for an event in the event log (newest first): of a type, in a tenant, whose data
     * matches. Answers `{ event }`, as waitForDelivery answers `{ event, delivery }`.
     *
     * @example
     * ```ts
     * await client.users.create({ email: 'ada@example.test' });
     * const { event } = await client.emulator.waitForEvent({ tenant: tenant.id, type: 'user.created', match: { email: 'ada@example.test' } });
     * expect(event.data).toMatchObject({ email: 'ada@example.test' });
     * ```
     */
    waitForEvent,
    /**
     * Waits for an event as waitForEvent does, then for its delivery to reach `status` (default
     * `succeeded`: the webhook target answered 2xx). Answers `{ event, delivery }`.
     *
     * @example
     * ```ts
     * await client.users.create({ email: 'ada@example.test' });
     * const { event, delivery } = await client.emulator.waitForDelivery({ tenant: tenant.id, type: 'user.created' });
     * expect(delivery).toMatchObject({ eventId: event.id, status: 'succeeded' });
     * ```
     */
    waitForDelivery: async (options: WaitOptions & { status?: z.infer<typeof DeliveryStatus> } = {}): Promise<DeliveryWaited> => {
      const status = options.status ?? 'succeeded';
      const started = performance.now();
      const { event } = await waitForEvent(options);
      const left = { ...options, timeoutMs: Math.max(0, (options.timeoutMs ?? 10_000) - (performance.now() - started)) };
      const delivery = await until(
        `a ${status} delivery of event ${event.id} (${event.type})`,
        left,
        async () => unwrap(await deliveries({ eventId: event.id, status })).data[0],
      );
      return { delivery, event };
    },
  };
}
