/** The DLQ (spec part 3, D9): dead deliveries across tenants, each with Retry, and Retry all. */
import type { Runtime } from '../runtime.js';
import { deadLetterEntries } from '../services/dashboard.js';
import { attemptOutcome, Badge, Card, Empty, PostButton, Table, Time } from './components.js';
import { Layout, UI_BASE, type PageFrame } from './layout.js';

export function DlqPage({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  const dead = deadLetterEntries(rt);
  const retryable = dead.filter((delivery) => !delivery.webhookDeleted).length;
  return (
    <Layout title="DLQ" active="dlq" {...frame}>
      <h1>Dead letter queue</h1>
      <p class="subtitle">
        Deliveries whose every retry failed. Retry sends the same event (same <code>X-Service-Event-Id</code>) once more. Deliveries of a deleted webhook stay
        here for their history; they have nowhere to go, so they cannot be retried.
      </p>
      <Card
        title={`${dead.length} dead deliver${dead.length === 1 ? 'y' : 'ies'}`}
        actions={
          retryable > 0 ? (
            <PostButton
              action="/dlq/retry-all"
              back={frame.here}
              label="Retry all"
              kind="primary"
              confirm={`Retry all ${retryable} dead deliveries whose webhook still exists?`}
            />
          ) : undefined
        }
      >
        {dead.length === 0 ? (
          <Empty>The DLQ is empty.</Empty>
        ) : (
          <Table columns={['Delivery', 'Tenant', 'Webhook', 'Event', { label: 'Attempts', num: true }, 'Last failure', 'Dead since', '']}>
            {dead.map((delivery) => {
              const last = delivery.attempts.at(-1);
              return (
                <tr data-delivery={delivery.id}>
                  <td>
                    <a class="mono" href={`${UI_BASE}/deliveries/${delivery.id}`}>
                      {delivery.id}
                    </a>
                  </td>
                  <td class="nowrap">
                    <a href={`${UI_BASE}/tenants/${delivery.tenantId}`}>{delivery.tenantName}</a>
                  </td>
                  <td>
                    {delivery.webhookUrl !== null ? (
                      <a class="mono truncate" href={`${UI_BASE}/webhooks/${delivery.webhookId}`} title={delivery.webhookUrl}>
                        {delivery.webhookUrl}
                      </a>
                    ) : (
                      <span class="muted" data-orphaned>
                        <span class="mono">{delivery.webhookId}</span> (deleted)
                      </span>
                    )}
                  </td>
                  <td>
                    <Badge value={delivery.eventType} tone="info" />
                  </td>
                  <td class="num">{delivery.attempts.length}</td>
                  <td>{last ? attemptOutcome(last) : <span class="muted">—</span>}</td>
                  <td>
                    <Time iso={delivery.updatedAt} />
                  </td>
                  <td class="num">
                    {delivery.webhookDeleted ? (
                      <span class="muted">webhook deleted</span>
                    ) : (
                      <PostButton action={`/deliveries/${delivery.id}/retry`} back={frame.here} label="Retry" kind="primary" small />
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Card>
    </Layout>
  );
}
