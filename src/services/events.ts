/**
 * The event log (DESIGN D8): domain actions record events inside their store write; each
 * event is stored once with its `evt_` id, ISO-ms `created_at` (emulator time) and the
 * tenant's pinned `api_version`. Listeners (the webhook dispatcher) hear of each event in
 * the same write, so the deliveries they plan are as durable as the event itself.
 */
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { EventRecord } from '../store/records.js';
import { DEFAULT_API_VERSION } from './tenants.js';

export interface EmitOptions {
  /** Deliver to this webhook only, whatever it subscribes to (test events, D8). */
  webhookId?: string;
}

export type EventListener = (rt: Runtime, event: EventRecord, options: EmitOptions) => void;

/** Records an event. Call inside `rt.store.write()`. */
export function emitEvent(
  rt: Runtime,
  tenantId: string,
  type: string,
  data: Record<string, unknown>,
  options: EmitOptions = {},
): EventRecord {
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
  for (const listener of rt.eventListeners) listener(rt, event, options);
  return event;
}

/** The webhook payload of an event (spec part 2): exactly these five fields. */
export function eventPayload(event: EventRecord): Pick<EventRecord, 'id' | 'type' | 'created_at' | 'api_version' | 'data'> {
  return { id: event.id, type: event.type, created_at: event.created_at, api_version: event.api_version, data: event.data };
}
