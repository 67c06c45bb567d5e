/**
 * Sending an event again to its webhooks (`svc webhook redeliver`): a delivery that
 * succeeded or is dead gets one more attempt, with the same event id (D9), as the DLQ's retry
 * gives a dead one. A delivery still pending or failed (a retry is scheduled) is left to its
 * schedule, and one whose webhook was deleted has nowhere to go: both are answered as skipped.
 */
import { parseDuration } from '../duration.js';
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { DeliveryRecord, EventRecord } from '../store/records.js';
import { controlDeliveryView, isOrphaned } from './control.js';

export interface RedeliverInput {
  eventId?: string | undefined;
  /** Every event recorded at or after this emulated time: ISO, or a duration back from now (`10m`). */
  since?: string | undefined;
  tenant?: string | undefined;
}

export interface RedeliverResult {
  events: number;
  redelivered: Array<ReturnType<typeof controlDeliveryView>>;
  skipped: Array<{ id: string; eventId: string; status: string; reason: string }>;
}

function eventsOf(rt: Runtime, input: RedeliverInput): EventRecord[] {
  if (input.eventId !== undefined) {
    const event = rt.store.get('events', input.eventId);
    if (!event || (input.tenant !== undefined && event.tenantId !== input.tenant)) throw notFound('event', input.eventId);
    return [event];
  }
  if (input.since === undefined)
    throw new ApiError('validation_error', 'name an event (eventId) or a time (since)', [{ path: 'eventId', message: 'give eventId or since', in: 'body' }]);
  const back = parseDuration(input.since);
  const since = back === undefined ? Date.parse(input.since) : rt.clock.nowMs() - back;
  const source = input.tenant === undefined ? [...rt.store.all('events')] : rt.store.ofTenant('events', input.tenant);
  return source.filter((event) => Date.parse(event.created_at) >= since);
}

function skipReason(delivery: DeliveryRecord): string | null {
  if (isOrphaned(delivery)) return 'its webhook was deleted';
  if (delivery.status === 'pending' || delivery.status === 'failed') return `it is ${delivery.status}: its next attempt is scheduled`;
  return null;
}

/** Sends each matching event's succeeded or dead deliveries once more, one after another, in the order the events were recorded. */
export async function redeliver(rt: Runtime, input: RedeliverInput): Promise<RedeliverResult> {
  const events = eventsOf(rt, input);
  const result: RedeliverResult = { events: events.length, redelivered: [], skipped: [] };
  for (const event of events) {
    const deliveries = rt.store.ofTenant('deliveries', event.tenantId).filter((delivery) => delivery.eventId === event.id);
    for (const delivery of deliveries) {
      const reason = skipReason(delivery);
      if (reason !== null) {
        result.skipped.push({ id: delivery.id, eventId: event.id, status: delivery.status, reason });
        continue;
      }
      const now = rt.clock.iso();
      await rt.store.write(() => rt.store.update('deliveries', delivery.id, { status: 'pending', nextAttemptAt: now, updatedAt: now }));
      result.redelivered.push(controlDeliveryView(await rt.dispatcher.attemptNow(delivery.id)));
    }
  }
  return result;
}
