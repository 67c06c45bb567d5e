/**
 * The webhook dispatcher (D8, D9): plans a delivery for every enabled webhook that
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
/** Real wait before storing again an attempt's outcome that could not be stored, doubled up to the cap. */
const RECORD_RETRY_FIRST_MS = 250;
const RECORD_RETRY_MAX_MS = 5_000;
/** Real wait before asking again for a claim the shared store could not answer. */
const CLAIM_RETRY_MS = 1_000;
/** Real time a claim on an attempt outlasts the attempt's own timeout (a shared store). */
const CLAIM_MARGIN_MS = 10_000;
/** How often a process waiting for another's attempt looks again. */
const CLAIM_POLL_MS = 25;

export function subscribes(webhook: WebhookRecord, type: string): boolean {
  return webhook.enabled && (webhook.events.includes(ALL_EVENTS) || webhook.events.includes(type));
}

/**
 * What a delivery becomes when its webhook is gone: kept for its history, marked orphaned; one
 * still waiting for an attempt goes to the DLQ for good (there is no URL or secret to send it with).
 */
export function orphaned(delivery: DeliveryRecord, now: string): Partial<DeliveryRecord> {
  const waiting = delivery.status === 'pending' || delivery.status === 'failed';
  return { orphanedAt: now, updatedAt: now, ...(waiting ? { status: 'dead' as const, nextAttemptAt: null } : {}) };
}

export class Dispatcher implements Deliveries {
  readonly #rt: Runtime;
  readonly #schedule: readonly number[];
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  /** Deliveries whose next attempt someone waits for (attemptNow). */
  readonly #awaited = new Set<string>();
  /** Attempts made whose outcome could not be stored yet: stored again, never sent again. */
  readonly #unrecorded = new Map<string, Promise<void>>();

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
    // Deliveries another process sharing the store plans or attempts: every process plans every
    // delivery, and the claim in #send decides which one makes each attempt.
    rt.store.onRemoteChange((change) => {
      if (change.op === 'put' && change.name === 'deliveries') {
        const delivery = change.record as DeliveryRecord;
        if (delivery.nextAttemptAt === null) rt.scheduler.cancel(delivery.id);
        else rt.scheduler.schedule(delivery.id, Date.parse(delivery.nextAttemptAt));
      } else if (change.op === 'del' && change.name === 'deliveries') {
        rt.scheduler.cancel(change.id);
      }
    });
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
    // Whoever makes this attempt (another process sharing the store may have claimed it), the answer waits for it.
    this.#awaited.add(id);
    try {
      await this.#rt.scheduler.runNow(id);
    } finally {
      this.#awaited.delete(id);
    }
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

  /**
   * Whether this process makes the attempt due now. With one process it always does. With a
   * shared store, another process may hold the claim: while the clock steps (`nominalAt` set)
   * or when a caller waits for the attempt (attemptNow), this waits for that attempt, so the
   * next step (or the answer) finds its outcome; otherwise it looks again
   * when that claim would lapse, in case its process died. The change log replans it sooner.
   */
  async #claim(id: string, nominalAt: number | undefined): Promise<boolean> {
    const { store, clock, scheduler } = this.#rt;
    const holdMs = this.#timeoutMs + CLAIM_MARGIN_MS;
    for (;;) {
      const claim = await store.claimAttempt(id, clock.iso(), holdMs);
      if (claim.state === 'claimed') return true;
      if (claim.state === 'not-due') {
        // Made meanwhile by another process: read its outcome before anyone answers from this record.
        await store.sync();
        if (claim.nextAttemptAt !== null) scheduler.schedule(id, Date.parse(claim.nextAttemptAt));
        return false;
      }
      if (nominalAt === undefined && !this.#awaited.has(id)) {
        scheduler.schedule(id, clock.nowMs() + Math.ceil(claim.forMs * clock.speed));
        return false;
      }
      const before = store.get('deliveries', id);
      const until = Date.now() + claim.forMs;
      while (Date.now() <= until) {
        await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
        await store.sync();
        if (store.get('deliveries', id) !== before) return false;
      }
    }
  }

  async #send(id: string, nominalAt?: number): Promise<void> {
    const { store, clock } = this.#rt;
    const recording = this.#unrecorded.get(id);
    if (recording) return recording;
    if (!store.get('deliveries', id)) return;
    let claimed: boolean;
    try {
      claimed = await this.#claim(id, nominalAt);
    } catch (error) {
      // The shared store cannot be asked who makes it: ask again a little later (real time), never send unclaimed.
      this.#logger?.log('warn', 'could not claim a delivery attempt; trying again', { delivery: id, error: (error as Error).message });
      setTimeout(() => this.#rt.scheduler.schedule(id, this.#rt.clock.nowMs()), CLAIM_RETRY_MS).unref();
      return;
    }
    if (!claimed) return;
    // Read after the claim, caught up with the shared store: what another process recorded
    // meanwhile counts, and a webhook or event made elsewhere a moment ago is here to send with
    // (a claim given up for want of them would hold everyone who waits for this attempt).
    await store.sync()?.catch(() => {});
    const delivery = store.get('deliveries', id);
    const webhook = delivery && store.get('webhooks', delivery.webhookId);
    const event = delivery && store.get('events', delivery.eventId);
    if (!delivery || delivery.nextAttemptAt === null || !webhook || !event) {
      // Not made after all: the claim goes at once, or every process stepping the clock would wait for it to lapse.
      if (delivery && delivery.nextAttemptAt !== null && !webhook) await this.#orphan(delivery).catch(() => {});
      await store.releaseAttempt(id).catch(() => {});
      return;
    }
    const at = nominalAt === undefined ? clock.iso() : new Date(nominalAt).toISOString();
    const outcome = await sendAttempt({
      url: webhook.url,
      secret: this.#rt.sealer.open(webhook.secret).toString('utf8'),
      eventId: event.id,
      body: JSON.stringify(eventPayload(event)),
      timeoutMs: this.#timeoutMs,
      targets: this.#rt.options,
      listening: this.#rt.listening,
    });
    const attempt: Attempt = { at, signedAt: outcome.signedAt, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    await this.#record(delivery, attempt, outcome.ok, RECORD_RETRY_FIRST_MS);
  }

  /** A delivery still waiting whose webhook is gone is orphaned, as the webhook's deletion would have done. */
  async #orphan(delivery: DeliveryRecord): Promise<void> {
    const { store, clock } = this.#rt;
    await store.write(() => {
      const current = store.get('deliveries', delivery.id);
      if (!current || current.nextAttemptAt === null || store.get('webhooks', current.webhookId)) return;
      store.update('deliveries', current.id, orphaned(current, clock.iso()));
    });
  }

  /**
   * Stores an attempt's outcome, once: when another process stored this attempt first (it
   * took the claim after this one lapsed), this one is logged and dropped. When the store
   * cannot be written, the outcome is stored again a little later (real time, so a fast clock
   * or a clock step does not turn it into a storm), and the attempt is not sent again.
   */
  async #record(seen: DeliveryRecord, attempt: Attempt, ok: boolean, retryMs: number): Promise<void> {
    const { store, clock } = this.#rt;
    const id = seen.id;
    let next: string | null = null;
    try {
      // The mutation may run more than once (a shared store finds its tenants first): it only reads and writes the store.
      const doubled = await store.write(() => {
        next = null;
        const current = store.get('deliveries', id);
        if (!current) return false;
        if (current.attempts.length !== seen.attempts.length) return true;
        const attempts = [...current.attempts, attempt];
        const failures = attempts.length;
        if (ok) {
          store.update('deliveries', id, { status: 'succeeded', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
        } else if (typeof current.orphanedAt === 'string') {
          // Its webhook was deleted while this attempt was on the wire: nothing to retry to.
          store.update('deliveries', id, { status: 'dead', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
        } else if (failures <= this.#schedule.length) {
          next = new Date(Date.parse(attempt.at) + this.#schedule[failures - 1]!).toISOString();
          store.update('deliveries', id, { status: 'failed', attempts, nextAttemptAt: next, updatedAt: clock.iso() });
        } else {
          store.update('deliveries', id, { status: 'dead', attempts, nextAttemptAt: null, updatedAt: clock.iso() });
        }
        return false;
      });
      if (doubled) {
        this.#logger?.log('warn', 'an attempt was made twice after a fault; the first outcome stored stands', { delivery: id });
      } else if (next === null && !ok && store.get('deliveries', id)?.status === 'dead') {
        this.#logger?.log('warn', 'delivery moved to the DLQ', { delivery: id, webhook: seen.webhookId, event: seen.eventId });
      }
    } catch (error) {
      this.#logger?.log('error', 'could not record a delivery attempt; trying again', { delivery: id, error: (error as Error).message });
      const again = new Promise<void>((resolve) => {
        setTimeout(() => resolve(this.#record(seen, attempt, ok, Math.min(retryMs * 2, RECORD_RETRY_MAX_MS))), retryMs).unref();
      });
      this.#unrecorded.set(id, again);
      // Whoever waits for this attempt (a clock step, a test event) is answered now; the outcome follows.
      return;
    }
    this.#unrecorded.delete(id);
    if (next !== null) this.#rt.scheduler.schedule(id, Date.parse(next));
  }
}

type Attempt = DeliveryRecord['attempts'][number];
