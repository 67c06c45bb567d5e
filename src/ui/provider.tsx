/**
 * The emulated payment provider's pages (DESIGN D13), mounted at /_provider outside /v1 and
 * without an API key, as a real provider's hosted pages are: a checkout page (plan, price,
 * Pay / Cancel) and a billing portal (plan, usage, switch plan, return). Plain
 * server-rendered HTML forms, so a person, a test over HTTP or a browser can drive them.
 */
import { Hono } from 'hono';
import { raw } from 'hono/html';
import type { Child, FC } from 'hono/jsx';
import { ApiError } from '../errors.js';
import { formBody } from '../middleware/body.js';
import type { Runtime } from '../runtime.js';
import {
  billingUsage, cancelCheckout, checkoutProblem, completeCheckout, PLAN_PRICES, PROVIDER_PATH, portalProblem, switchPlanInPortal,
} from '../services/billing.js';
import { PLAN_LIMITS } from '../services/tenants.js';
import { PLANS, type Plan } from '../store/records.js';

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1a1f36}
main{max-width:28rem;margin:4rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 2px 8px #0002}
h1{font-size:1.2rem;margin-top:0}.price{font-size:2rem;font-weight:600}.muted{color:#697386;font-size:.9rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}td{padding:.3rem 0;border-bottom:1px solid #eee}td:last-child{text-align:right}
form{display:inline}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #aab;background:#fff;cursor:pointer;margin:.3rem .3rem 0 0}
button.primary{background:#635bff;color:#fff;border-color:#635bff}.banner{background:#fff8e1;padding:.5rem;border-radius:4px}`;

function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

const Page: FC<{ title: string; children?: Child }> = ({ title, children }) => (
  <>
    {raw('<!DOCTYPE html>')}
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{title} · svc payment provider (test mode)</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <p class="banner muted">Test mode: the svc emulator's payment provider. No money moves.</p>
          {children}
        </main>
      </body>
    </html>
  </>
);

const Limits: FC<{ plan: Plan }> = ({ plan }) => {
  const limits = PLAN_LIMITS[plan];
  return (
    <table>
      <tr><td>Requests per second</td><td>{limits.requestsPerSecond.toLocaleString('en')}</td></tr>
      <tr><td>Monthly active users</td><td>{limits.monthlyActiveUsers.toLocaleString('en')}</td></tr>
      <tr><td>Wallets</td><td>{limits.wallets.toLocaleString('en')}</td></tr>
      <tr><td>Webhook deliveries</td><td>{limits.deliveries.toLocaleString('en')}</td></tr>
    </table>
  );
};

const Message: FC<{ title: string; text: string; link?: string | undefined }> = ({ title, text, link }) => (
  <Page title={title}>
    <h1>{title}</h1>
    <p>{text}</p>
    {link ? <p><a href={link}>Return to the application</a></p> : null}
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
    const checkout = rt.store.get('checkoutSessions', c.req.param('id'));
    if (!checkout) return c.html(<Message title="Not found" text="There is no such checkout." />, 404);
    const tenant = rt.store.get('tenants', checkout.tenantId);
    const problem = checkoutProblem(rt, checkout);
    if (problem !== null) return c.html(<Message title="Checkout closed" text={problem} link={checkout.cancelUrl} />, 410);
    const base = `${PROVIDER_PATH}/checkout/${checkout.id}`;
    return c.html(
      <Page title="Checkout">
        <h1>Subscribe {tenant?.name ?? 'your tenant'} to the {checkout.plan} plan</h1>
        <p class="price" data-testid="price">{money(PLAN_PRICES[checkout.plan])} <span class="muted">per month</span></p>
        <Limits plan={checkout.plan} />
        <form method="post" action={`${base}/pay`}><button class="primary" type="submit">Pay</button></form>
        <form method="post" action={`${base}/cancel`}><button type="submit">Cancel</button></form>
        <p class="muted">Checkout {checkout.id} · expires {checkout.expiresAt}</p>
      </Page>,
    );
  });

  pages.post('/checkout/:id/pay', async (c) => c.redirect(await completeCheckout(rt, c.req.param('id')), 303));
  pages.post('/checkout/:id/cancel', async (c) => c.redirect(await cancelCheckout(rt, c.req.param('id')), 303));

  pages.get('/portal/:id', (c) => {
    const portal = rt.store.get('portalSessions', c.req.param('id'));
    if (!portal) return c.html(<Message title="Not found" text="There is no such billing portal session." />, 404);
    const problem = portalProblem(rt, portal);
    if (problem !== null) return c.html(<Message title="Link expired" text={problem} link={portal.returnUrl} />, 410);
    const usage = billingUsage(rt, portal.tenantId);
    const tenant = rt.store.get('tenants', portal.tenantId);
    return c.html(
      <Page title="Billing portal">
        <h1>{tenant?.name ?? 'Your'} subscription</h1>
        <p class="price" data-testid="plan">{usage.plan} · {money(usage.price.amount)} <span class="muted">per month</span></p>
        <table>
          <tr><td>API calls this month</td><td>{usage.usage.apiCalls.toLocaleString('en')}</td></tr>
          <tr><td>Monthly active users</td><td>{usage.usage.monthlyActiveUsers} / {usage.limits.monthlyActiveUsers.toLocaleString('en')}</td></tr>
          <tr><td>Wallets</td><td>{usage.usage.wallets} / {usage.limits.wallets.toLocaleString('en')}</td></tr>
          <tr><td>Webhook deliveries this month</td><td>{usage.usage.deliveries} / {usage.limits.deliveries.toLocaleString('en')}</td></tr>
        </table>
        {PLANS.filter((plan) => plan !== usage.plan).map((plan) => (
          <form method="post" action={`${PROVIDER_PATH}/portal/${portal.id}/plan`}>
            <input type="hidden" name="plan" value={plan} />
            <button type="submit">Switch to {plan} ({money(PLAN_PRICES[plan])}/month)</button>
          </form>
        ))}
        <p><a href={portal.returnUrl}>Return to the application</a></p>
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
