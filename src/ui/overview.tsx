/** The dashboard's front page: counts, the tenants, the latest events. */
import type { Runtime } from '../runtime.js';
import { eventLogPage, storeTotals, tenantSummaries } from '../services/dashboard.js';
import { Badge, Card, Empty, Table, Time } from './components.js';
import { EventRows } from './events.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';

function Stat({ label, value, href, alert }: { label: string; value: number; href: string; alert?: boolean }) {
  return (
    <a class={alert ? 'stat alert' : 'stat'} href={href}>
      <div class="label">{label}</div>
      <div class="value">{value}</div>
    </a>
  );
}

export function OverviewPage({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  const tenants = tenantSummaries(rt);
  const totals = storeTotals(rt);
  const latest = eventLogPage(rt, {}, { offset: 0, limit: 8 }).entries;
  return (
    <Layout title="Overview" active="overview" {...frame}>
      <h1>Overview</h1>
      <p class="subtitle">Everything this emulator holds, across tenants. The clock above drives retries, TTLs and expiry.</p>
      <div class="stats">
        <Stat label="Tenants" value={totals.tenants} href={`${UI_BASE}#tenants`} />
        <Stat label="Users" value={totals.users} href={`${UI_BASE}#tenants`} />
        <Stat label="Webhooks" value={totals.webhooks} href={`${UI_BASE}/webhooks`} />
        <Stat label="Deliveries waiting" value={totals.deliveriesWaiting} href={`${UI_BASE}/webhooks`} />
        <Stat label="Dead letters" value={totals.deadLetters} href={`${UI_BASE}/dlq`} alert={totals.deadLetters > 0} />
        <Stat label="Events" value={totals.events} href={`${UI_BASE}/events`} />
      </div>
      <Card title="Tenants" id="tenants">
        {tenants.length === 0 ? (
          <Empty>
            No tenants. Seed some on the <a href={`${UI_BASE}/control`}>Control</a> page.
          </Empty>
        ) : (
          <Table
            columns={[
              'Name',
              'Id',
              'Plan',
              { label: 'API keys', num: true },
              { label: 'Apps', num: true },
              { label: 'Users', num: true },
              { label: 'Webhooks', num: true },
              'Created',
            ]}
          >
            {tenants.map((tenant) => (
              <tr>
                <td>
                  <a href={`${UI_BASE}/tenants/${tenant.id}`}>{tenant.name}</a>
                </td>
                <td class="mono">{tenant.id}</td>
                <td>
                  <Badge value={tenant.plan} tone="accent" />
                </td>
                <td class="num">{tenant.activeApiKeys}</td>
                <td class="num">{tenant.apps}</td>
                <td class="num">
                  <a href={`${UI_BASE}/tenants/${tenant.id}/users`}>{tenant.users}</a>
                </td>
                <td class="num">{tenant.webhooks}</td>
                <td>
                  <Time iso={tenant.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card
        title="Latest events"
        actions={
          <a class="btn small" href={`${UI_BASE}/events`}>
            All events →
          </a>
        }
      >
        {latest.length === 0 ? <Empty>No events yet. Create a user, or trigger one on the Control page.</Empty> : <EventRows events={latest} />}
      </Card>
    </Layout>
  );
}
