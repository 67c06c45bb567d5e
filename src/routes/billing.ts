/**
 * /v1/billing: checkout and portal sessions at the emulated payment provider, and usage. The
 * pages' links begin with the URL svc is reached at (base-url.ts ownUrl()), not a request's Host.
 */
import { ownUrl } from '../base-url.js';
import { billingOperations } from '../operations/billing.js';
import type { Runtime } from '../runtime.js';
import { billingUsage, checkoutUrl, createCheckout, createPortal, portalUrl } from '../services/billing.js';
import { newRouter } from './router.js';

export function billingRoutes(rt: Runtime) {
  return newRouter()
    .openapi(billingOperations.createCheckoutSession, async (c) => {
      const checkout = await createCheckout(rt, c.get('tenant').id, c.req.valid('json'));
      const { id, plan, status, expiresAt } = checkout;
      return c.json({ data: { id, url: checkoutUrl(ownUrl(rt.options), id), plan, status, expiresAt } }, 201);
    })
    .openapi(billingOperations.createPortalSession, async (c) => {
      const portal = await createPortal(rt, c.get('tenant').id, c.req.valid('json').returnUrl);
      return c.json({ data: { id: portal.id, url: portalUrl(ownUrl(rt.options), portal.id), expiresAt: portal.expiresAt } }, 201);
    })
    .openapi(billingOperations.getBillingUsage, (c) => c.json({ data: billingUsage(rt, c.get('tenant').id) }, 200));
}
