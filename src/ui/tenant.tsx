/** One tenant: its settings, API keys (masked, D3), apps, webhooks, and its users (searched and paged, D7). */
import type { Runtime } from '../runtime.js';
import { listApiKeys } from '../services/api-keys.js';
import { listApps } from '../services/apps.js';
import { userCount } from '../services/dashboard.js';
import { listUsers } from '../services/users.js';
import { listWebhooks } from '../services/webhooks.js';
import type { TenantView } from '../schemas/tenant.js';
import { TrustLevel, type UserView } from '../schemas/users.js';
import { Badge, Card, Crumbs, Empty, MaskedKey, Pager, Table, Time } from './components.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';
import { WebhookRows } from './webhooks.js';

export const USERS_PAGE_SIZE = 25;

export function TenantPage({ rt, frame, tenant }: { rt: Runtime; frame: PageFrame; tenant: TenantView }) {
  const keys = listApiKeys(rt, tenant.id);
  const apps = listApps(rt, tenant.id, { page: 1, page_size: 100 });
  const webhooks = listWebhooks(rt, tenant.id);
  const base = `${UI_BASE}/tenants/${tenant.id}`;
  return (
    <Layout title={tenant.name} active="overview" {...frame}>
      <Crumbs items={[{ href: UI_BASE, label: 'Overview' }, { label: 'Tenants' }]} />
      <h1>{tenant.name}</h1>
      <p class="subtitle">
        <code>{tenant.id}</code> · plan <Badge value={tenant.plan} tone="accent" /> · <a href={`${base}/users`}>{userCount(rt, tenant.id)} users</a> ·{' '}
        <a href={`${UI_BASE}/events?tenant=${tenant.id}`}>events</a>
      </p>
      <div class="grid2">
        <Card title="Settings">
          <dl class="props">
            <dt>Webhook api_version</dt>
            <dd class="mono">{tenant.settings.apiVersion}</dd>
            <dt>Session TTL</dt>
            <dd class="mono">{tenant.settings.sessionTtl}</dd>
            <dt>Guest TTL</dt>
            <dd class="mono">{tenant.settings.guestTtl}</dd>
            <dt>MFA freshness</dt>
            <dd class="mono">{tenant.settings.mfaFreshness}</dd>
            <dt>WebAuthn RP</dt>
            <dd>
              <code>{tenant.settings.webauthn.rpId}</code> · {tenant.settings.webauthn.rpName}
            </dd>
            <dt>WebAuthn origins</dt>
            <dd class="mono">{tenant.settings.webauthn.origins.join(', ') || '—'}</dd>
            <dt>Telegram bot</dt>
            <dd>{tenant.settings.telegram.botUsername ? `@${tenant.settings.telegram.botUsername}` : '—'}</dd>
          </dl>
        </Card>
        <Card title={`API keys (${keys.length})`}>
          {keys.length === 0 ? (
            <Empty>No API keys.</Empty>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Status</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr>
                    <td>{key.name}</td>
                    <td>
                      <MaskedKey prefix={key.prefix} last4={key.last4} />
                    </td>
                    <td>
                      <Badge value={key.status} />
                    </td>
                    <td>
                      <Time iso={key.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      </div>
      <Card title={`Apps (${apps.total})`}>
        {apps.total === 0 ? (
          <Empty>No apps.</Empty>
        ) : (
          <Table columns={['Name', 'Id', 'Description', 'Allowed origins', 'Created']}>
            {apps.data.map((app) => (
              <tr>
                <td>{app.name}</td>
                <td class="mono">{app.id}</td>
                <td>{app.description ?? <span class="muted">—</span>}</td>
                <td class="mono">{app.allowedOrigins.join(', ') || '—'}</td>
                <td>
                  <Time iso={app.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card title={`Webhooks (${webhooks.length})`}>
        {webhooks.length === 0 ? (
          <Empty>No webhooks. Register one with POST /v1/webhooks.</Empty>
        ) : (
          <WebhookRows rt={rt} tenantId={tenant.id} webhooks={webhooks} />
        )}
      </Card>
    </Layout>
  );
}

export interface UsersQuery {
  search?: string | undefined;
  trustLevel?: UserView['trustLevel'] | undefined;
  page: number;
}

export function UsersPage({ rt, frame, tenant, query }: { rt: Runtime; frame: PageFrame; tenant: TenantView; query: UsersQuery }) {
  const page = listUsers(rt, tenant.id, { page: query.page, page_size: USERS_PAGE_SIZE, search: query.search, trust_level: query.trustLevel });
  const path = `${UI_BASE}/tenants/${tenant.id}/users`;
  return (
    <Layout title={`Users · ${tenant.name}`} active="overview" {...frame}>
      <Crumbs items={[{ href: UI_BASE, label: 'Overview' }, { href: `${UI_BASE}/tenants/${tenant.id}`, label: tenant.name }, { label: 'Users' }]} />
      <h1>Users</h1>
      <p class="subtitle">Newest first. Search matches part of an email or a name, ignoring case.</p>
      <Card title={`${page.total} user${page.total === 1 ? '' : 's'}`}>
        <form class="toolbar" method="get" action={path}>
          <input type="search" name="search" value={query.search ?? ''} placeholder="Search email or name" aria-label="Search" />
          <select name="trust_level" aria-label="Trust level">
            <option value="">Any trust level</option>
            {TrustLevel.options.map((level) => (
              <option value={level} selected={level === query.trustLevel}>
                {level}
              </option>
            ))}
          </select>
          <button class="btn" type="submit">
            Search
          </button>
          {(query.search !== undefined || query.trustLevel !== undefined) && (
            <a class="btn" href={path}>
              Clear
            </a>
          )}
        </form>
        {page.data.length === 0 ? (
          <Empty>No users match.</Empty>
        ) : (
          <Table columns={['Email', 'Name', 'Trust level', 'Id', 'Party', 'Created']}>
            {page.data.map((user) => (
              <tr>
                <td>{user.email ?? <span class="muted">(guest)</span>}</td>
                <td class="nowrap">{user.name ?? <span class="muted">—</span>}</td>
                <td>
                  <Badge value={user.trustLevel} />
                </td>
                <td class="mono">{user.id}</td>
                <td>
                  <code class="truncate" title={user.partyId}>
                    {user.partyId}
                  </code>
                </td>
                <td>
                  <Time iso={user.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager path={path} query={{ search: query.search, trust_level: query.trustLevel }} page={page.page} pageSize={page.pageSize} total={page.total} />
      </Card>
    </Layout>
  );
}
