/** Webhooks, their deliveries and each attempt (D8, D9): time, status, error, duration. */
import type { Runtime } from '../runtime.js';
import type { DeliveryView, WebhookView } from '../schemas/webhooks.js';
import { deliveryCounts, tenantName, webhooksByTenant, type DeliveryDetail, type TenantWebhookView } from '../services/dashboard.js';
import { listDeliveries } from '../services/webhooks.js';
import { attemptOutcome, Badge, Card, Crumbs, Empty, Json, PostButton, Table, Time } from './components.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';

type DeliveryStatus = DeliveryView['status'];

const STATUSES: DeliveryStatus[] = ['pending', 'failed', 'succeeded', 'dead'];

const TONE: Record<DeliveryStatus, string> = { succeeded: 'ok', failed: 'warn', dead: 'bad', pending: 'info' };

/** Rows of one tenant's webhooks with their delivery counts by status. */
export function WebhookRows({ rt, tenantId, webhooks }: { rt: Runtime; tenantId: string; webhooks: WebhookView[] }) {
  return (
    <Table columns={['URL', 'Events', 'State', 'Deliveries', 'Created']}>
      {webhooks.map((webhook) => {
        const counts = deliveryCounts(rt, tenantId, webhook.id);
        return (
          <tr>
            <td>
              <a class="mono truncate" href={`${UI_BASE}/webhooks/${webhook.id}`} title={webhook.url}>
                {webhook.url}
              </a>
              <div class="muted mono">{webhook.id}</div>
            </td>
            <td class="mono">{webhook.events.join(', ')}</td>
            <td>
              <Badge value={webhook.enabled ? 'enabled' : 'disabled'} />
            </td>
            <td class="nowrap">
              {STATUSES.filter((status) => counts[status] > 0).map((status) => (
                <>
                  <a href={`${UI_BASE}/webhooks/${webhook.id}?status=${status}`}>
                    <Badge value={`${counts[status]} ${status}`} tone={TONE[status]} />
                  </a>{' '}
                </>
              ))}
              {STATUSES.every((status) => counts[status] === 0) && <span class="muted">none yet</span>}
            </td>
            <td>
              <Time iso={webhook.createdAt} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

export function WebhooksPage({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  return (
    <Layout title="Webhooks" active="webhooks" {...frame}>
      <h1>Webhooks</h1>
      <p class="subtitle">Every registered endpoint by tenant, with its deliveries. Open one to see each attempt.</p>
      {webhooksByTenant(rt).map(({ tenant, webhooks }) => (
        <Card title={<a href={`${UI_BASE}/tenants/${tenant.id}`}>{tenant.name}</a>}>
          {webhooks.length === 0 ? <Empty>No webhooks.</Empty> : <WebhookRows rt={rt} tenantId={tenant.id} webhooks={webhooks} />}
        </Card>
      ))}
    </Layout>
  );
}

/** Rows of deliveries: event, status, attempts and the last outcome, with Retry for a dead one. */
export function DeliveryRows({ deliveries, back }: { deliveries: DeliveryView[]; back: string }) {
  return (
    <Table columns={['Delivery', 'Event', 'Status', { label: 'Attempts', num: true }, 'Last attempt', 'Next attempt', '']}>
      {deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <tr data-delivery={delivery.id}>
            <td>
              <a class="mono" href={`${UI_BASE}/deliveries/${delivery.id}`}>
                {delivery.id}
              </a>
            </td>
            <td>
              <Badge value={delivery.eventType} tone="info" />
              <div class="muted mono">{delivery.eventId}</div>
            </td>
            <td>
              <Badge value={delivery.status} />
            </td>
            <td class="num">{delivery.attempts.length}</td>
            <td>
              {last ? (
                <>
                  <Time iso={last.at} />
                  <div class="muted">{attemptOutcome(last)}</div>
                </>
              ) : (
                <span class="muted">—</span>
              )}
            </td>
            <td>
              <Time iso={delivery.nextAttemptAt} />
            </td>
            <td class="num">
              {delivery.status === 'dead' && <PostButton action={`/deliveries/${delivery.id}/retry`} back={back} label="Retry" kind="primary" small />}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

export function WebhookPage(props: { rt: Runtime; frame: PageFrame; webhook: TenantWebhookView; status?: DeliveryStatus | undefined }) {
  const { rt, frame, webhook, status } = props;
  const deliveries = listDeliveries(rt, webhook.tenantId, webhook.id, status);
  const path = `${UI_BASE}/webhooks/${webhook.id}`;
  return (
    <Layout title="Webhook" active="webhooks" {...frame}>
      <Crumbs
        items={[
          { href: `${UI_BASE}/webhooks`, label: 'Webhooks' },
          { href: `${UI_BASE}/tenants/${webhook.tenantId}`, label: tenantName(rt, webhook.tenantId) },
          { label: webhook.id },
        ]}
      />
      <h1 class="mono" style="font-size:18px">
        {webhook.url}
      </h1>
      <p class="subtitle">
        <Badge value={webhook.enabled ? 'enabled' : 'disabled'} /> · subscribed to <code>{webhook.events.join(', ')}</code>
        {webhook.description && <> · {webhook.description}</>}
      </p>
      <Card title={`Deliveries (${deliveries.length}${status ? ` ${status}` : ''})`}>
        <div class="toolbar">
          <a class="btn small" href={path} aria-current={status === undefined ? 'page' : undefined}>
            All
          </a>
          {STATUSES.map((s) => (
            <a class="btn small" href={`${path}?status=${s}`} aria-current={status === s ? 'page' : undefined}>
              {s}
            </a>
          ))}
        </div>
        {deliveries.length === 0 ? (
          <Empty>No deliveries{status ? ` with status ${status}` : ''}.</Empty>
        ) : (
          <DeliveryRows deliveries={deliveries} back={frame.here} />
        )}
      </Card>
    </Layout>
  );
}

export function DeliveryPage({ frame, delivery }: { frame: PageFrame; delivery: DeliveryDetail }) {
  const { webhookUrl, payload } = delivery;
  return (
    <Layout title="Delivery" active="webhooks" {...frame}>
      <Crumbs
        items={[
          { href: `${UI_BASE}/webhooks`, label: 'Webhooks' },
          webhookUrl !== null ? { href: `${UI_BASE}/webhooks/${delivery.webhookId}`, label: webhookUrl } : { label: `${delivery.webhookId} (deleted)` },
          { label: delivery.id },
        ]}
      />
      <h1>
        Delivery <span class="mono">{delivery.id}</span> <Badge value={delivery.status} />
      </h1>
      <p class="subtitle">
        {delivery.eventType} · event <code>{delivery.eventId}</code>
      </p>
      <div class="grid2 wide-right">
        <Card
          title="Delivery"
          actions={
            delivery.status === 'dead' && webhookUrl !== null ? (
              <PostButton action={`/deliveries/${delivery.id}/retry`} back={frame.here} label="Retry" kind="primary" />
            ) : undefined
          }
        >
          <dl class="props">
            <dt>Status</dt>
            <dd>
              <Badge value={delivery.status} />
            </dd>
            <dt>Webhook</dt>
            <dd class="mono">
              {webhookUrl ?? `${delivery.webhookId} (deleted${delivery.orphanedAt ? ` at ${delivery.orphanedAt}` : ''}; this delivery is kept for its history)`}
            </dd>
            <dt>Attempts</dt>
            <dd>{delivery.attempts.length}</dd>
            <dt>Next attempt</dt>
            <dd>
              <Time iso={delivery.nextAttemptAt} />
            </dd>
            <dt>Created</dt>
            <dd>
              <Time iso={delivery.createdAt} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <Time iso={delivery.updatedAt} />
            </dd>
          </dl>
        </Card>
        <Card title="Payload">{payload !== null ? <Json value={payload} summary="the signed body" open /> : <Empty>The event is gone.</Empty>}</Card>
      </div>
      <Card title={`Attempts (${delivery.attempts.length})`}>
        {delivery.attempts.length === 0 ? (
          <Empty>No attempt yet.</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th class="num">#</th>
                <th>Time (emulator)</th>
                <th>Status</th>
                <th>Error</th>
                <th class="num">Duration</th>
                <th class="num">Signed at (Unix s)</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt, index) => (
                <tr data-attempt={String(index + 1)}>
                  <td class="num">{index + 1}</td>
                  <td>
                    <Time iso={attempt.at} />
                  </td>
                  <td>
                    {attempt.statusCode === null ? (
                      <span class="muted">no answer</span>
                    ) : (
                      <Badge value={String(attempt.statusCode)} tone={attempt.statusCode >= 200 && attempt.statusCode < 300 ? 'ok' : 'bad'} />
                    )}
                  </td>
                  <td>{attempt.error ?? <span class="muted">—</span>}</td>
                  <td class="num">{attempt.durationMs < 10 ? attempt.durationMs.toFixed(1) : Math.round(attempt.durationMs)} ms</td>
                  <td class="num mono">{attempt.signedAt}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </Layout>
  );
}
