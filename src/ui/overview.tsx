/** The dashboard's front page: counts, the tenants, the latest events. */
import type { Runtime } from '../runtime.js';
import { deadLetters, eventLog } from '../services/control.js';
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
  const tenants = [...rt.store.all('tenants')];
  const deliveries = [...rt.store.all('deliveries')];
  const waiting = deliveries.filter((delivery) => delivery.status === 'pending' || delivery.status === 'failed').length;
  const dead = deadLetters(rt).length;
  const events = eventLog(rt);
  return (
    <Layout title="Overview" active="overview" {...frame}>
      <h1>Overview</h1>
      <p class="subtitle">Everything this emulator holds, across tenants. The clock above drives retries, TTLs and expiry.</p>
      <div class="stats">
        <Stat label="Tenants" value={tenants.length} href={`${UI_BASE}#tenants`} />
        <Stat label="Users" value={rt.store.count('users')} href={`${UI_BASE}#tenants`} />
        <Stat label="Webhooks" value={rt.store.count('webhooks')} href={`${UI_BASE}/webhooks`} />
        <Stat label="Deliveries waiting" value={waiting} href={`${UI_BASE}/webhooks`} />
        <Stat label="Dead letters" value={dead} href={`${UI_BASE}/dlq`} alert={dead > 0} />
        <Stat label="Events" value={events.length} href={`${UI_BASE}/events`} />
      </div>
      <Card title="Tenants" id="tenants">
        {tenants.length === 0 ? (
          <Empty>
            No tenants. Seed some on the <a href={`${UI_BASE}/control`}>Control</a> page.
          </Empty>
        ) : (
          <Table columns={['Name', 'Id', 'Plan', { label: 'API keys', num: true }, { label: 'Apps', num: true }, { label: 'Users', num: true }, { label: 'Webhooks', num: true }, 'Created']}>
            {tenants.map((tenant) => (
              <tr>
                <td>
                  <a href={`${UI_BASE}/tenants/${tenant.id}`}>{tenant.name}</a>
                </td>
                <td class="mono">{tenant.id}</td>
                <td>
                  <Badge value={tenant.plan} tone="accent" />
                </td>
                <td class="num">{rt.store.ofTenant('apiKeys', tenant.id).filter((key) => key.revokedAt === null).length}</td>
                <td class="num">{rt.store.count('apps', tenant.id)}</td>
                <td class="num">
                  <a href={`${UI_BASE}/tenants/${tenant.id}/users`}>{rt.store.count('users', tenant.id)}</a>
                </td>
                <td class="num">{rt.store.count('webhooks', tenant.id)}</td>
                <td>
                  <Time iso={tenant.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card title="Latest events" actions={<a class="btn small" href={`${UI_BASE}/events`}>All events →</a>}>
        {events.length === 0 ? <Empty>No events yet. Create a user, or trigger one on the Control page.</Empty> : <EventRows rt={rt} events={events.slice(0, 8)} />}
      </Card>
    </Layout>
  );
}
