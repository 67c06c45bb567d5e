/**
 * The event log (D8): domain actions record events inside their store write; each
 * event is stored once with its `evt_` id, ISO-ms `created_at` (emulator time) and the
 * tenant's pinned `api_version`, and handed in the same write to the webhook dispatcher
 * (`rt.dispatcher.eventRecorded`), so the deliveries it plans are as durable as the event.
 */
import { newId } from '../ids.js';
import type { EmitOptions, Runtime } from '../runtime.js';
import type { EventRecord } from '../store/records.js';
import type { EventType } from '../schemas/words.js';
import { DEFAULT_API_VERSION } from './tenant.js';

/** Records an event. Call inside `rt.store.write()`. */
export function emitEvent(rt: Runtime, tenantId: string, type: EventType, data: Record<string, unknown>, options: EmitOptions = {}): EventRecord {
  const tenant = rt.store.get('tenants', tenantId);
  const event: EventRecord = {
    id: newId('evt'),
    tenantId,
    type,
    created_at: rt.clock.iso(),
    api_version: tenant?.settings.apiVersion ?? DEFAULT_API_VERSION,
    data,
  };
  rt.store.insert('events', event);
  rt.dispatcher.eventRecorded(event, options);
  return event;
}
