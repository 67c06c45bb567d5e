/** The control plane in the dashboard (D10, D11): the clock, trigger, faults, seed and reset. */
import type { Runtime } from '../runtime.js';
import { tenantNames } from '../services/dashboard.js';
import { faultInjector } from '../services/faults.js';
import { EVENT_TYPES } from '../schemas/words.js';
import { Badge, Card, Empty, PostButton, Time } from './components.js';
import { Layout, shortTime, UI_BASE, type PageFrame } from './layout.js';

const EXAMPLE_FIXTURE = JSON.stringify(
  {
    tenants: [
      {
        name: 'Initech',
        plan: 'free',
        apiKeys: [{ name: 'local', key: 'sk_test_initechLocalDevKey0000000000001' }],
        users: [{ email: 'peter@initech.example', trustLevel: 'basic' }],
      },
    ],
  },
  null,
  2,
);

function ClockCard({ frame }: { frame: PageFrame }) {
  return (
    <Card title="Clock">
      <p>
        Emulator time <strong class="mono">{shortTime(frame.clock.now)}</strong>, running at ×{frame.clock.speed}. Advancing fires, in order, every retry and
        expiry that comes due.
      </p>
      <form class="form-row" method="post" action={`${UI_BASE}/clock/advance`}>
        <input type="hidden" name="back" value={frame.here} />
        <label class="field">
          Advance by
          <input name="by" placeholder="90s, 15m, 2h, 7d" required size={12} />
        </label>
        <button class="btn primary" type="submit">
          Advance
        </button>
      </form>
      <form class="form-row" method="post" action={`${UI_BASE}/clock`} style="margin-top:12px">
        <input type="hidden" name="back" value={frame.here} />
        <label class="field">
          Set time (ISO 8601)
          <input name="now" placeholder={frame.clock.now} size={26} />
        </label>
        <label class="field">
          Speed
          <input name="speed" type="number" min="0.001" step="any" placeholder={String(frame.clock.speed)} style="width:90px" />
        </label>
        <button class="btn" type="submit">
          Set
        </button>
      </form>
    </Card>
  );
}

function TriggerCard({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  return (
    <Card title="Trigger an event">
      <p class="muted">Records one event with sample data, as if it had happened, and sends it to the tenant's subscribed webhooks.</p>
      <form class="form-row" method="post" action={`${UI_BASE}/trigger`}>
        <input type="hidden" name="back" value={frame.here} />
        <label class="field">
          Type
          <select name="type">
            {EVENT_TYPES.map((type) => (
              <option value={type}>{type}</option>
            ))}
          </select>
        </label>
        <label class="field">
          Tenant
          <select name="tenantId">
            {tenantNames(rt).map((tenant) => (
              <option value={tenant.id}>{tenant.name}</option>
            ))}
          </select>
        </label>
        <button class="btn primary" type="submit">
          Trigger
        </button>
      </form>
    </Card>
  );
}

async function FaultsCard({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  const faults = await faultInjector(rt).list();
  return (
    <Card
      title="Fault injection"
      actions={faults.length > 0 ? <PostButton action="/faults/clear" back={frame.here} label="Clear all" kind="danger" small /> : undefined}
    >
      <p class="muted">
        The next <em>count</em> /v1 requests that match (with a tenant: only those its API keys send) answer the status in the error envelope, or wait the delay
        first, or both. Paths are relative to /v1: <code>/users</code>, <code>/users/:id</code>, <code>/webhooks/*</code>.
      </p>
      <form class="form-row" method="post" action={`${UI_BASE}/faults`}>
        <input type="hidden" name="back" value={frame.here} />
        <label class="field">
          Method
          <select name="method">
            <option value="">any</option>
            {['GET', 'POST', 'PATCH', 'DELETE'].map((method) => (
              <option value={method}>{method}</option>
            ))}
          </select>
        </label>
        <label class="field">
          Path
          <input name="path" placeholder="/users" required size={18} />
        </label>
        <label class="field">
          Status
          <input name="status" type="number" min="400" max="599" placeholder="500" style="width:80px" />
        </label>
        <label class="field">
          Delay
          <input name="delay" placeholder="2s" size={6} />
        </label>
        <label class="field">
          Count
          <input name="count" type="number" min="1" value="1" required style="width:70px" />
        </label>
        <label class="field">
          Tenant
          <select name="tenant">
            <option value="">every caller</option>
            {tenantNames(rt).map((tenant) => (
              <option value={tenant.id}>{tenant.name}</option>
            ))}
          </select>
        </label>
        <button class="btn primary" type="submit">
          Add fault
        </button>
      </form>
      {faults.length === 0 ? (
        <Empty>No faults: every request is answered as usual.</Empty>
      ) : (
        <table style="margin-top:12px">
          <thead>
            <tr>
              <th>Id</th>
              <th>Method</th>
              <th>Path</th>
              <th>Status</th>
              <th>Delay</th>
              <th>Tenant</th>
              <th class="num">Remaining</th>
              <th>Added</th>
            </tr>
          </thead>
          <tbody>
            {faults.map((fault) => (
              <tr>
                <td class="mono">{fault.id}</td>
                <td>{fault.method ?? <span class="muted">any</span>}</td>
                <td class="mono">{fault.path}</td>
                <td>{fault.status === null ? <span class="muted">—</span> : <Badge value={String(fault.status)} tone="bad" />}</td>
                <td class="mono">{fault.delay ?? '—'}</td>
                <td class="mono">{fault.tenant ?? <span class="muted">every caller</span>}</td>
                <td class="num">
                  {fault.remaining} of {fault.count}
                </td>
                <td>
                  <Time iso={fault.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function DataCard({ frame }: { frame: PageFrame }) {
  return (
    <Card title="Data">
      <form method="post" action={`${UI_BASE}/seed`}>
        <input type="hidden" name="back" value={frame.here} />
        <label class="field" for="fixture">
          Seed a fixture document (added to what the store holds; same format as fixtures/default.json)
        </label>
        <textarea id="fixture" name="fixture" required spellcheck={false} placeholder={EXAMPLE_FIXTURE} />
        <div class="toolbar" style="margin-top:8px">
          <button class="btn primary" type="submit">
            Seed
          </button>
        </div>
      </form>
      <div class="toolbar" style="margin-top:16px">
        <span class="grow muted">Reset empties the store and seeds the server's fixture again. The clock is left as it is.</span>
        <PostButton
          action="/reset"
          back={frame.here}
          label="Reset the store"
          kind="danger"
          confirm="Empty the store and seed the fixture again? Everything made since is lost."
        />
      </div>
    </Card>
  );
}

export function ControlPage({ rt, frame }: { rt: Runtime; frame: PageFrame }) {
  return (
    <Layout title="Control" active="control" {...frame}>
      <h1>Control plane</h1>
      <p class="subtitle">
        What <code>/_emulator</code> and the <code>svc</code> CLI do, from the browser.
      </p>
      <div class="grid2">
        <ClockCard frame={frame} />
        <TriggerCard rt={rt} frame={frame} />
      </div>
      <FaultsCard rt={rt} frame={frame} />
      <DataCard frame={frame} />
    </Layout>
  );
}
