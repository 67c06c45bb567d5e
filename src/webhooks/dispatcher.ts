/**
 * The webhook dispatcher (DESIGN D8, D9): plans a delivery for every enabled webhook that
 * subscribes to an event (in the event's own store write, so both are equally durable),
 * sends the first attempt at once, retries failures on the emulator clock after 1 min,
 * 5 min, 30 min, 2 h and 24 h, and moves a delivery whose fifth retry fails to the DLQ.
 * Every non-final delivery carries `nextAttemptAt`, so a restart resumes the schedule. When
 * an attempt is due is the scheduler's business (clock/scheduler.ts); what an attempt does
 * is this file's.
 */
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import type { Deliveries, EmitOptions, Runtime } from '../runtime.js';
import type { DeliveryRecord, EventRecord, WebhookRecord } from '../store/records.js';
import { ALL_EVENTS } from '../schemas/words.js';
import { eventPayload } from './payload.js';
import { DEFAULT_DELIVERY_TIMEOUT_MS, sendAttempt } from './sender.js';

/** Delays between attempts (spec part 6): after each failure, the next row. */
export const RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000] as const;
/** Emulated wait before repeating an attempt whose result could not be stored. */
const STORE_FAILURE_BACKOFF_MS = 5_000;

export function subscribes(webhook: WebhookRecord, type: string): boolean {
  return webhook.enabled && (webhook.events.includes(ALL_EVENTS) || webhook.events.includes(type));
}

export class Dispatcher implements Deliveries {
  readonly #rt: Runtime;
  readonly #schedule: readonly number[];
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;

  /** Takes the scheduler's due jobs as delivery attempts and plans every stored delivery that is not final. */
  constructor(rt: Runtime, logger?: Logger) {
    this.#rt = rt;
    this.#schedule = rt.options.retryScheduleMs ?? RETRY_SCHEDULE_MS;
    this.#timeoutMs = rt.options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.#logger = logger;
    rt.scheduler.handle((id, dueMs) => this.#send(id, dueMs));
    for (const delivery of rt.store.all('deliveries')) {
      if (delivery.nextAttemptAt !== null) rt.scheduler.schedule(delivery.id, Date.parse(delivery.nextAttemptAt));
    }
  }

  /** Inside the event's store write: one pending delivery per subscribed webhook. */
  eventRecorded(event: EventRecord, options: EmitOptions): void {
    const { store } = this.#rt;
    const targets =
      options.webhookId !== undefined
        ? [store.getOwned('webhooks', event.tenantId, options.webhookId)].filter((w): w is WebhookRecord => w !== undefined)
        : store.ofTenant('webhooks', event.tenantId).filter((webhook) => subscribes(webhook, event.type));
    const now = event.created_at;
    const ids: string[] = [];
    for (const webhook of targets) {
      const delivery: DeliveryRecord = {
        id: newId('dlv'),
        tenantId: event.tenantId,
        webhookId: webhook.id,
        eventId: event.id,
        eventType: event.type,
        status: 'pending',
        attempts: [],
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      };
      store.insert('deliveries', delivery);
      ids.push(delivery.id);
    }
    if (ids.length === 0) return;
    store.onCommitted(() => {
      for (const id of ids) this.#rt.scheduler.schedule(id, Date.parse(now));
    });
  }

  /** Sends a delivery's next attempt now and answers the delivery after it (test events, DLQ retries). */
  async attemptNow(id: string): Promise<DeliveryRecord> {
    await this.#rt.scheduler.runNow(id);
    const delivery = this.#rt.store.get('deliveries', id);
    if (!delivery) throw notFound('delivery', id);
    return delivery;
  }

  /** Puts a dead delivery back to pending for one more attempt (same event id) and sends it. */
  async retry(tenantId: string | null, id: string): Promise<DeliveryRecord> {
    const { store, clock } = this.#rt;
    const delivery = tenantId === null ? store.get('deliveries', id) : store.getOwned('deliveries', tenantId, id);
    if (!delivery) throw notFound('delivery', id);
    if (delivery.status !== 'dead') {
      throw new ApiError('conflict', `delivery ${id} is ${delivery.status}; only dead deliveries (in the DLQ) can be retried`);
    }
    if (typeof delivery.orphanedAt === 'string') {
      throw new ApiError(
        'conflict',
        `delivery ${id} cannot be retried: its webhook ${delivery.webhookId} was deleted, so there is no URL or secret to send it with`,
      );
    }
    const now = clock.iso();
    await store.write(() => store.update('deliveries', id, { status: 'pending', nextAttemptAt: now, updatedAt: now }));
    return this.attemptNow(id);
  }

  async #send(id: string, nominalAt?: number): Promise<void> {
    const { store, clock } = this.#rt;
    const delivery = store.get('deliveries', id);
    if (!delivery || delivery.nextAttemptAt === null) return;
    const webhook = store.get('webhooks', delivery.webhookId);
    const event = store.get('events', delivery.eventId);
    if (!webhook || !event) return;
    const at = nominalAt === undefined ? clock.iso() : new Date(nominalAt).toISOString();
    const outcome = await sendAttempt({
      url: webhook.url,
      secret: this.#rt.sealer.open(webhook.secret).toString('utf8'),
      eventId: event.id,
      body: JSON.stringify(eventPayload(event)),
      timeoutMs: this.#timeoutMs,
    });
    const attempt = { at, signedAt: outcome.signedAt, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    let next: string | null = null;
    try {
      await store.write(() => {
        const current = store.get('deliveries', id);
        if (!current) return;
        const attempts = [...current.attempts, attempt];
        const failures = attempts.length;
        if (outcome.ok) {
          store.update('deliveries', id, { status: 'succeeded', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
        } else if (typeof current.orphanedAt === 'string') {
          // Its webhook was deleted while this attempt was on the wire: nothing to retry to.
          store.update('deliveries', id, { status: 'dead', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
        } else if (failures <= this.#schedule.length) {
          next = new Date(Date.parse(at) + this.#schedule[failures - 1]!).toISOString();
          store.update('deliveries', id, { status: 'failed', attempts, nextAttemptAt: next, updatedAt: clock.iso() });
        } else {
          store.update('deliveries', id, { status: 'dead', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
          this.#logger?.log('warn', 'delivery moved to the DLQ', { delivery: id, webhook: webhook.id, event: event.id });
        }
      });
    } catch (error) {
      // The store could not be written: try the attempt again a little later.
      this.#rt.scheduler.schedule(id, clock.nowMs() + STORE_FAILURE_BACKOFF_MS);
      this.#logger?.log('error', 'could not record a delivery attempt', { delivery: id, error: (error as Error).message });
      return;
    }
    if (next !== null) this.#rt.scheduler.schedule(id, Date.parse(next));
  }
}
