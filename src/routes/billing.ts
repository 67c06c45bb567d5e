/** /v1/billing: checkout and portal sessions at the emulated payment provider, and usage. */
import { billingOperations } from '../operations/billing.js';
import type { Runtime } from '../runtime.js';
import { billingUsage, checkoutUrl, createCheckout, createPortal, portalUrl } from '../services/billing.js';
import { newRouter } from './router.js';

export function billingRoutes(rt: Runtime) {
  return newRouter()
    .openapi(billingOperations.createCheckoutSession, async (c) => {
      const checkout = await createCheckout(rt, c.get('tenant').id, c.req.valid('json'));
      const { id, plan, status, expiresAt } = checkout;
      return c.json({ data: { id, url: checkoutUrl(new URL(c.req.url).origin, id), plan, status, expiresAt } }, 201);
    })
    .openapi(billingOperations.createPortalSession, async (c) => {
      const portal = await createPortal(rt, c.get('tenant').id, c.req.valid('json').returnUrl);
      return c.json({ data: { id: portal.id, url: portalUrl(new URL(c.req.url).origin, portal.id), expiresAt: portal.expiresAt } }, 201);
    })
    .openapi(billingOperations.getBillingUsage, (c) => c.json({ data: billingUsage(rt, c.get('tenant').id) }, 200));
}
