/** The event log (DESIGN D8, D11): every event recorded, newest first, by type and tenant. */
import type { Runtime } from '../runtime.js';
import { eventLog } from '../services/control.js';
import { eventPayload } from '../webhooks/payload.js';
import type { EventRecord } from '../store/records.js';
import { EVENT_TYPES } from '../webhooks/event-types.js';
import { Badge, Card, Empty, Json, Pager, Table, Time } from './components.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';

export const EVENTS_PAGE_SIZE = 50;

export interface EventsQuery {
  type?: string | undefined;
  tenant?: string | undefined;
  page: number;
}

/** Rows of events with their tenant and the deliveries each one planned. */
export function EventRows({ rt, events }: { rt: Runtime; events: EventRecord[] }) {
  const deliveriesByEvent = new Map<string, number>();
  for (const delivery of rt.store.all('deliveries')) deliveriesByEvent.set(delivery.eventId, (deliveriesByEvent.get(delivery.eventId) ?? 0) + 1);
  return (
    <Table columns={['Time', 'Type', 'Tenant', 'Event id', { label: 'Deliveries', num: true }, 'Data']}>
      {events.map((event) => (
        <tr>
          <td>
            <Time iso={event.created_at} />
          </td>
          <td>
            <Badge value={event.type} tone="info" />
          </td>
          <td class="nowrap">
            <a href={`${UI_BASE}/tenants/${event.tenantId}`}>{rt.store.get('tenants', event.tenantId)?.name ?? event.tenantId}</a>
          </td>
          <td class="mono">{event.id}</td>
          <td class="num">{deliveriesByEvent.get(event.id) ?? 0}</td>
          <td>
            <Json value={eventPayload(event)} summary="payload" />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function EventsPage({ rt, frame, query }: { rt: Runtime; frame: PageFrame; query: EventsQuery }) {
  const all = eventLog(rt, { type: query.type, tenant: query.tenant });
  const page = all.slice((query.page - 1) * EVENTS_PAGE_SIZE, query.page * EVENTS_PAGE_SIZE);
  const seenTypes = new Set<string>(EVENT_TYPES);
  for (const event of rt.store.all('events')) seenTypes.add(event.type);
  return (
    <Layout title="Events" active="events" {...frame}>
      <h1>Event log</h1>
      <p class="subtitle">Every event the emulator recorded, newest first, with the payload its webhooks were sent.</p>
      <Card title={`${all.length} event${all.length === 1 ? '' : 's'}`}>
        <form class="toolbar" method="get" action={`${UI_BASE}/events`}>
          <select name="type" aria-label="Event type">
            <option value="">All types</option>
            {[...seenTypes].sort().map((type) => (
              <option value={type} selected={type === query.type}>
                {type}
              </option>
            ))}
          </select>
          <select name="tenant" aria-label="Tenant">
            <option value="">All tenants</option>
            {[...rt.store.all('tenants')].map((tenant) => (
              <option value={tenant.id} selected={tenant.id === query.tenant}>
                {tenant.name}
              </option>
            ))}
          </select>
          <button class="btn" type="submit">
            Filter
          </button>
          {(query.type !== undefined || query.tenant !== undefined) && (
            <a class="btn" href={`${UI_BASE}/events`}>
              Clear
            </a>
          )}
        </form>
        {page.length === 0 ? <Empty>No events match.</Empty> : <EventRows rt={rt} events={page} />}
        {all.length > EVENTS_PAGE_SIZE && (
          <Pager path={`${UI_BASE}/events`} query={{ type: query.type, tenant: query.tenant }} page={query.page} pageSize={EVENTS_PAGE_SIZE} total={all.length} />
        )}
      </Card>
    </Layout>
  );
}
