/**
 * The webhook dispatcher (DESIGN D8, D9): plans a delivery for every enabled webhook that
 * subscribes to an event (in the event's own store write, so both are equally durable),
 * sends the first attempt at once, retries failures on the emulator clock after 1 min,
 * 5 min, 30 min, 2 h and 24 h, and moves a delivery whose fifth retry fails to the DLQ.
 * Every non-final delivery carries `nextAttemptAt`, so a restart resumes the schedule.
 */
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { eventPayload, type EmitOptions } from '../services/events.js';
import type { DeliveryRecord, EventRecord, WebhookRecord } from '../store/records.js';
import { ALL_EVENTS } from './event-types.js';
import { DEFAULT_DELIVERY_TIMEOUT_MS, sendAttempt } from './sender.js';

/** Delays between attempts (spec part 6): after each failure, the next row. */
export const RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000] as const;
/** Attempts sent at once; more wait their turn. */
export const MAX_IN_FLIGHT = 256;
/** Emulated wait before repeating an attempt whose result could not be stored. */
const STORE_FAILURE_BACKOFF_MS = 5_000;
/** Longest single timer; a later due time is re-planned when it fires. */
const MAX_TIMER_MS = 2 ** 30;

export function subscribes(webhook: WebhookRecord, type: string): boolean {
  return webhook.enabled && (webhook.events.includes(ALL_EVENTS) || webhook.events.includes(type));
}

export class Dispatcher {
  readonly #rt: Runtime;
  readonly #schedule: readonly number[];
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  /** Deliveries waiting for an attempt: id → emulator due time (ms). */
  readonly #due = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #kickQueued = false;
  #stepping = false;
  #stopped = true;

  constructor(rt: Runtime, logger?: Logger) {
    this.#rt = rt;
    this.#schedule = rt.options.retryScheduleMs ?? RETRY_SCHEDULE_MS;
    this.#timeoutMs = rt.options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.#logger = logger;
  }

  /** Listens for events, resumes every stored delivery that is not final, and plans the timer. */
  start(): void {
    this.#stopped = false;
    this.#rt.eventListeners.push((_rt, event, options) => this.#planDeliveries(event, options));
    for (const delivery of this.#rt.store.all('deliveries')) {
      if (delivery.nextAttemptAt !== null) this.#due.set(delivery.id, Date.parse(delivery.nextAttemptAt));
    }
    this.#rt.clock.onChange(() => this.#plan());
    this.#kick();
  }

  /** Stops the timer and waits for attempts under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await Promise.allSettled(this.#inFlight.values());
  }

  /** Inside the event's store write: one pending delivery per subscribed webhook. */
  #planDeliveries(event: EventRecord, options: EmitOptions): void {
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
      for (const id of ids) this.#due.set(id, Date.parse(now));
      this.#kick();
    });
  }

  /** Sends a delivery's next attempt now and answers the delivery after it (test events, DLQ retries). */
  async attemptNow(id: string): Promise<DeliveryRecord> {
    this.#due.delete(id);
    await (this.#inFlight.get(id) ?? this.#attempt(id));
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
      throw new ApiError('conflict', `delivery ${id} cannot be retried: its webhook ${delivery.webhookId} was deleted, so there is no URL or secret to send it with`);
    }
    const now = clock.iso();
    await store.write(() => store.update('deliveries', id, { status: 'pending', nextAttemptAt: now, updatedAt: now }));
    return this.attemptNow(id);
  }

  /**
   * Advances the emulator clock by `ms`, firing in order everything that comes due: the
   * clock steps to each due time, so retries keep their exact spacing. Answers how many
   * attempts were sent.
   */
  async advance(ms: number): Promise<number> {
    const { clock } = this.#rt;
    const target = clock.nowMs() + ms;
    let fired = 0;
    this.#stepping = true;
    if (this.#timer) clearTimeout(this.#timer);
    try {
      for (;;) {
        await Promise.allSettled(this.#inFlight.values());
        const next = this.#earliestDue();
        if (next === undefined || next > target) break;
        if (next > clock.nowMs()) clock.set(new Date(next));
        const due = this.#takeDue(clock.nowMs(), Number.POSITIVE_INFINITY);
        fired += due.length;
        // Each attempt is recorded at its due time, whatever real time stepping took.
        await Promise.allSettled(due.map(([id, at]) => this.#attempt(id, at)));
      }
      if (clock.nowMs() < target) clock.set(new Date(target));
    } finally {
      this.#stepping = false;
      this.#plan();
    }
    return fired;
  }

  /** Deliveries waiting, for the control plane: id → due time. */
  get scheduled(): ReadonlyMap<string, number> {
    return this.#due;
  }

  #earliestDue(): number | undefined {
    let earliest: number | undefined;
    for (const due of this.#due.values()) if (earliest === undefined || due < earliest) earliest = due;
    return earliest;
  }

  /** Removes and answers up to `limit` deliveries due at `now` with their due times, earliest first. */
  #takeDue(now: number, limit: number): Array<[string, number]> {
    const taken = [...this.#due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]).slice(0, limit);
    for (const [id] of taken) this.#due.delete(id);
    return taken;
  }

  #kick(): void {
    if (this.#kickQueued) return;
    this.#kickQueued = true;
    setImmediate(() => {
      this.#kickQueued = false;
      this.#runDue();
    });
  }

  #runDue(): void {
    if (this.#stopped || this.#stepping) return;
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    if (room > 0) for (const [id] of this.#takeDue(this.#rt.clock.nowMs(), room)) void this.#attempt(id);
    this.#plan();
  }

  /** Sets one timer for the earliest due delivery, in real time at the clock's speed. */
  #plan(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#stopped || this.#stepping) return;
    const next = this.#earliestDue();
    if (next === undefined) return;
    const delay = Math.min(this.#rt.clock.realDelayUntil(next), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#runDue(), delay);
    this.#timer.unref();
  }

  #attempt(id: string, nominalAt?: number): Promise<void> {
    const running = this.#inFlight.get(id);
    if (running) return running;
    const attempt = this.#send(id, nominalAt).finally(() => {
      this.#inFlight.delete(id);
      this.#kick();
    });
    this.#inFlight.set(id, attempt);
    return attempt;
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
      this.#due.set(id, clock.nowMs() + STORE_FAILURE_BACKOFF_MS);
      this.#logger?.log('error', 'could not record a delivery attempt', { delivery: id, error: (error as Error).message });
      return;
    }
    if (next !== null) this.#due.set(id, Date.parse(next));
  }
}
