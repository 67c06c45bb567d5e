/** /v1/billing: checkout and portal sessions at the emulated payment provider, and usage. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { BillingUsage, CheckoutBody, CheckoutSession, PortalBody, PortalSession } from '../schemas/billing.js';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { billingUsage, checkoutUrl, createCheckout, createPortal, portalUrl } from '../services/billing.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Billing'];
const security = API_KEY_SECURITY;

export function billingRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/checkout',
        operationId: 'createCheckoutSession',
        tags,
        security,
        summary: 'Create checkout session at the payment provider',
        request: jsonBody(CheckoutBody),
        responses: { 201: jsonResponse(envelope(CheckoutSession), 'Send the payer to `url`'), ...errorResponses(409) },
      }),
      async (c) => {
        const checkout = await createCheckout(rt, c.get('tenant').id, c.req.valid('json'));
        const { id, plan, status, expiresAt } = checkout;
        return c.json({ data: { id, url: checkoutUrl(new URL(c.req.url).origin, id), plan, status, expiresAt } }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/portal',
        operationId: 'createPortalSession',
        tags,
        security,
        summary: 'Create billing portal session',
        request: jsonBody(PortalBody),
        responses: { 201: jsonResponse(envelope(PortalSession), 'Send the customer to `url`') },
      }),
      async (c) => {
        const portal = await createPortal(rt, c.get('tenant').id, c.req.valid('json').returnUrl);
        return c.json({ data: { id: portal.id, url: portalUrl(new URL(c.req.url).origin, portal.id), expiresAt: portal.expiresAt } }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/usage',
        operationId: 'getBillingUsage',
        tags,
        security,
        summary: 'Get current usage',
        responses: { 200: jsonResponse(envelope(BillingUsage), 'This month’s usage against the plan’s limits') },
      }),
      (c) => c.json({ data: billingUsage(rt, c.get('tenant').id) }, 200),
    );
}
