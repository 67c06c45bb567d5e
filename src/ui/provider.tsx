/**
 * The emulated payment provider's pages (D13), in the dashboard's layout: a checkout page
 * (plan, price, Pay / Cancel), a billing portal (plan, usage, switch plan, return) and a message
 * page. Markup only: `routes/provider.tsx` finds the records and answers. Plain server-rendered
 * HTML forms, so a person, a test over HTTP or a browser can drive them.
 */
import type { Child, FC } from 'hono/jsx';
import type { BillingUsageView } from '../schemas/billing.js';
import { PLAN_PRICES, PLANS, PROVIDER_PATH, type Plan, type ProviderCheckout, type ProviderPortal } from '../services/billing.js';
import { PLAN_LIMITS } from '../services/tenant.js';
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

/** A page with one message and, when given, a link back to the application. */
export const ProviderMessage: FC<{ title: string; text: string | string[]; link?: string | undefined }> = ({ title, text, link }) => (
  <Page title={title}>
    <h1>{title}</h1>
    <section class="card">
      {[text].flat().map((line) => (
        <p>{line}</p>
      ))}
      {link ? (
        <p>
          <a href={link}>Return to the application</a>
        </p>
      ) : null}
    </section>
  </Page>
);

/** The checkout: the plan, its price and limits, Pay and Cancel. */
export const CheckoutPage: FC<{ checkout: ProviderCheckout }> = ({ checkout }) => {
  const base = `${PROVIDER_PATH}/checkout/${checkout.id}`;
  return (
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
    </Page>
  );
};

/** The billing portal: the plan, this month's usage against its limits, a switch to each other plan. */
export const PortalPage: FC<{ portal: ProviderPortal; usage: BillingUsageView }> = ({ portal, usage }) => (
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
  </Page>
);
