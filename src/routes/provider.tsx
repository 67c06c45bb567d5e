/**
 * The emulated payment provider's routes (D13), mounted at /_provider outside /v1 and
 * without an API key, as a real provider's hosted pages are. The pages' markup is in
 * `ui/provider.tsx`; the rules (expiry, paying, switching plans) in `services/billing.ts`.
 */
import { Hono } from 'hono';
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
  goneText,
  PLANS,
  PROVIDER_PATH,
  portalProblem,
  switchPlanInPortal,
  type Plan,
} from '../services/billing.js';
import { CheckoutPage, PortalPage, ProviderMessage as Message } from '../ui/provider.js';

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
    if (problem !== null) return c.html(<Message title="Checkout closed" text={goneText(rt, problem, checkout)} link={checkout.cancelUrl} />, 410);
    return c.html(<CheckoutPage checkout={checkout} />);
  });

  pages.post('/checkout/:id/pay', async (c) => c.redirect(await completeCheckout(rt, c.req.param('id')), 303));
  pages.post('/checkout/:id/cancel', async (c) => c.redirect(await cancelCheckout(rt, c.req.param('id')), 303));

  pages.get('/portal/:id', (c) => {
    const portal = findPortal(rt, c.req.param('id'));
    if (!portal) return c.html(<Message title="Not found" text="There is no such billing portal session." />, 404);
    const problem = portalProblem(rt, portal);
    if (problem !== null) return c.html(<Message title="Link expired" text={goneText(rt, problem, portal)} link={portal.returnUrl} />, 410);
    return c.html(<PortalPage portal={portal} usage={billingUsage(rt, portal.tenantId)} />);
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
