/**
 * The webhook payload of an event (spec part 2, D8): exactly the five fields `id`,
 * `type`, `created_at`, `api_version` and `data`, serialised once by the dispatcher; those
 * bytes are signed and sent. The dashboard shows the same object.
 */
import type { EventRecord } from '../store/records.js';

export type EventPayload = Pick<EventRecord, 'id' | 'type' | 'created_at' | 'api_version' | 'data'>;

export function eventPayload(event: EventRecord): EventPayload {
  return { id: event.id, type: event.type, created_at: event.created_at, api_version: event.api_version, data: event.data };
}
