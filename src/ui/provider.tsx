/**
 * The emulated payment provider's pages (DESIGN D13), mounted at /_provider outside /v1 and
 * without an API key, as a real provider's hosted pages are: a checkout page (plan, price,
 * Pay / Cancel) and a billing portal (plan, usage, switch plan, return), in the dashboard's
 * layout. Plain server-rendered HTML forms, so a person, a test over HTTP or a browser can
 * drive them.
 */
import { Hono } from 'hono';
import type { Child, FC } from 'hono/jsx';
import { ApiError } from '../errors.js';
import { formBody } from '../middleware/body.js';
import type { Runtime } from '../runtime.js';
import {
  billingUsage,
  cancelCheckout,
  checkoutProblem,
  completeCheckout,
  findCheckout,
  findPortal,
  PLAN_PRICES,
  PLANS,
  PROVIDER_PATH,
  portalProblem,
  switchPlanInPortal,
  type Plan,
} from '../services/billing.js';
import { PLAN_LIMITS } from '../services/tenants.js';
import { Table, Time } from './components.js';
import { Layout } from './layout.js';

function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** The dashboard's shell, narrow, named as the provider, with the test-mode notice on top. */
const Page: FC<{ title: string; children?: Child }> = ({ title, children }) => (
  <Layout title={title} nav={false} section="Payment provider · test mode">
    <div class="flash warn" role="note">
      Test mode: the svc emulator's payment provider. No money moves.
    </div>
    {children}
  </Layout>
);

const Limits: FC<{ plan: Plan }> = ({ plan }) => {
  const limits = PLAN_LIMITS[plan];
  const rows: Array<[string, number]> = [
    ['Requests per second', limits.requestsPerSecond],
    ['Monthly active users', limits.monthlyActiveUsers],
    ['Wallets', limits.wallets],
    ['Webhook deliveries', limits.deliveries],
  ];
  return (
    <Table columns={['Included', { label: 'Limit', num: true }]}>
      {rows.map(([label, value]) => (
        <tr>
          <td>{label}</td>
          <td class="num">{value.toLocaleString('en')}</td>
        </tr>
      ))}
    </Table>
  );
};

const Message: FC<{ title: string; text: string; link?: string | undefined }> = ({ title, text, link }) => (
  <Page title={title}>
    <h1>{title}</h1>
    <section class="card">
      <p>{text}</p>
      {link ? (
        <p>
          <a href={link}>Return to the application</a>
        </p>
      ) : null}
    </section>
  </Page>
);

function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** The provider's pages; `app.route('/_provider', providerPages(rt))`. */
export function providerPages(rt: Runtime): Hono {
  const pages = new Hono();

  pages.onError((error, c) => {
    const status = error instanceof ApiError ? error.status : 500;
    const text = error instanceof ApiError ? error.message : 'Something went wrong at the provider.';
    return c.html(<Message title={status === 404 ? 'Not found' : 'Cannot continue'} text={text} />, status as 404);
  });

  pages.get('/checkout/:id', (c) => {
    const checkout = findCheckout(rt, c.req.param('id'));
    if (!checkout) return c.html(<Message title="Not found" text="There is no such checkout." />, 404);
    const problem = checkoutProblem(rt, checkout);
    if (problem !== null) return c.html(<Message title="Checkout closed" text={problem} link={checkout.cancelUrl} />, 410);
    const base = `${PROVIDER_PATH}/checkout/${checkout.id}`;
    return c.html(
      <Page title="Checkout">
        <h1>
          Subscribe {checkout.tenantName ?? 'your tenant'} to the {checkout.plan} plan
        </h1>
        <p class="subtitle">Pay to switch the plan now; cancel to go back without a change.</p>
        <section class="card">
          <p class="price" data-testid="price">
            {money(PLAN_PRICES[checkout.plan])} <span class="muted">per month</span>
          </p>
          <Limits plan={checkout.plan} />
          <div class="form-row spaced">
            <form method="post" action={`${base}/pay`}>
              <button class="btn primary" type="submit">
                Pay
              </button>
            </form>
            <form method="post" action={`${base}/cancel`}>
              <button class="btn" type="submit">
                Cancel
              </button>
            </form>
          </div>
          <dl class="props">
            <dt>Checkout</dt>
            <dd>
              <code>{checkout.id}</code>
            </dd>
            <dt>Expires</dt>
            <dd data-testid="expires">
              <Time iso={checkout.expiresAt} /> <span class="muted">UTC</span>
            </dd>
          </dl>
        </section>
      </Page>,
    );
  });

  pages.post('/checkout/:id/pay', async (c) => c.redirect(await completeCheckout(rt, c.req.param('id')), 303));
  pages.post('/checkout/:id/cancel', async (c) => c.redirect(await cancelCheckout(rt, c.req.param('id')), 303));

  pages.get('/portal/:id', (c) => {
    const portal = findPortal(rt, c.req.param('id'));
    if (!portal) return c.html(<Message title="Not found" text="There is no such billing portal session." />, 404);
    const problem = portalProblem(rt, portal);
    if (problem !== null) return c.html(<Message title="Link expired" text={problem} link={portal.returnUrl} />, 410);
    const usage = billingUsage(rt, portal.tenantId);
    return c.html(
      <Page title="Billing portal">
        <h1>{portal.tenantName ?? 'Your'} subscription</h1>
        <p class="subtitle">Usage this month against the plan's limits; switch plans or go back.</p>
        <section class="card">
          <p class="price" data-testid="plan">
            {usage.plan} · {money(usage.price.amount)} <span class="muted">per month</span>
          </p>
          <Table columns={['Usage', { label: 'Used / limit', num: true }]}>
            <tr>
              <td>API calls this month</td>
              <td class="num">{usage.usage.apiCalls.toLocaleString('en')}</td>
            </tr>
            <tr>
              <td>Monthly active users</td>
              <td class="num">
                {usage.usage.monthlyActiveUsers} / {usage.limits.monthlyActiveUsers.toLocaleString('en')}
              </td>
            </tr>
            <tr>
              <td>Wallets</td>
              <td class="num">
                {usage.usage.wallets} / {usage.limits.wallets.toLocaleString('en')}
              </td>
            </tr>
            <tr>
              <td>Webhook deliveries this month</td>
              <td class="num">
                {usage.usage.deliveries} / {usage.limits.deliveries.toLocaleString('en')}
              </td>
            </tr>
          </Table>
          <div class="form-row spaced">
            {PLANS.filter((plan) => plan !== usage.plan).map((plan) => (
              <form method="post" action={`${PROVIDER_PATH}/portal/${portal.id}/plan`}>
                <input type="hidden" name="plan" value={plan} />
                <button class="btn" type="submit">
                  Switch to {plan} ({money(PLAN_PRICES[plan])}/month)
                </button>
              </form>
            ))}
          </div>
          <p>
            <a href={portal.returnUrl}>Return to the application</a>
          </p>
        </section>
      </Page>,
    );
  });

  pages.post('/portal/:id/plan', async (c) => {
    const id = c.req.param('id');
    const form = await formBody(c.req);
    if (!isPlan(form['plan'])) return c.html(<Message title="Unknown plan" text={`Choose one of ${PLANS.join(', ')}.`} />, 400);
    await switchPlanInPortal(rt, id, form['plan']);
    return c.redirect(`${PROVIDER_PATH}/portal/${id}`, 303);
  });

  return pages;
}
