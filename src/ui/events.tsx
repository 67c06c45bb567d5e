/** The event log (D8, D11): every event recorded, newest first, by type and tenant. */
import type { Runtime } from '../runtime.js';
import { eventLogPage, eventTypes, tenantNames, type EventEntry } from '../services/dashboard.js';
import { Badge, Card, Empty, Json, Pager, Table, Time } from './components.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';

export const EVENTS_PAGE_SIZE = 50;

export interface EventsQuery {
  type?: string | undefined;
  tenant?: string | undefined;
  page: number;
}

/** Rows of events with their tenant and the deliveries each one planned. */
export function EventRows({ events }: { events: EventEntry[] }) {
  return (
    <Table columns={['Time', 'Type', 'Tenant', 'Event id', { label: 'Deliveries', num: true }, 'Data']}>
      {events.map((event) => (
        <tr>
          <td>
            <Time iso={event.createdAt} />
          </td>
          <td>
            <Badge value={event.type} tone="info" />
          </td>
          <td class="nowrap">
            <a href={`${UI_BASE}/tenants/${event.tenantId}`}>{event.tenantName}</a>
          </td>
          <td class="mono">{event.id}</td>
          <td class="num">{event.deliveries}</td>
          <td>
            <Json value={event.payload} summary="payload" />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function EventsPage({ rt, frame, query }: { rt: Runtime; frame: PageFrame; query: EventsQuery }) {
  const { total, entries } = eventLogPage(
    rt,
    { type: query.type, tenant: query.tenant },
    { offset: (query.page - 1) * EVENTS_PAGE_SIZE, limit: EVENTS_PAGE_SIZE },
  );
  return (
    <Layout title="Events" active="events" {...frame}>
      <h1>Event log</h1>
      <p class="subtitle">Every event the emulator recorded, newest first, with the payload its webhooks were sent.</p>
      <Card title={`${total} event${total === 1 ? '' : 's'}`}>
        <form class="toolbar" method="get" action={`${UI_BASE}/events`}>
          <select name="type" aria-label="Event type">
            <option value="">All types</option>
            {eventTypes(rt).map((type) => (
              <option value={type} selected={type === query.type}>
                {type}
              </option>
            ))}
          </select>
          <select name="tenant" aria-label="Tenant">
            <option value="">All tenants</option>
            {tenantNames(rt).map((tenant) => (
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
        {entries.length === 0 ? <Empty>No events match.</Empty> : <EventRows events={entries} />}
        {total > EVENTS_PAGE_SIZE && (
          <Pager path={`${UI_BASE}/events`} query={{ type: query.type, tenant: query.tenant }} page={query.page} pageSize={EVENTS_PAGE_SIZE} total={total} />
        )}
      </Card>
    </Layout>
  );
}
