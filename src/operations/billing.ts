/** The operations of routes/billing.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { BillingUsage, CheckoutBody, CheckoutSession, PortalBody, PortalSession } from '../schemas/billing.js';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { BILLING_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Billing'];
const security = API_KEY_SECURITY;

export const billingOperations = {
  createCheckoutSession: createRoute({
    method: 'post',
    path: '/checkout',
    operationId: 'createCheckoutSession',
    tags,
    security,
    summary: 'Create checkout session at the payment provider',
    request: jsonBody(CheckoutBody, EXAMPLES.checkoutBody),
    responses: { 201: jsonResponse(envelope(CheckoutSession), 'Send the payer to `url`', { data: EXAMPLES.checkout }), ...errorResponses(409) },
  }),
  createPortalSession: createRoute({
    method: 'post',
    path: '/portal',
    operationId: 'createPortalSession',
    tags,
    security,
    summary: 'Create billing portal session',
    request: jsonBody(PortalBody, EXAMPLES.portalBody),
    responses: { 201: jsonResponse(envelope(PortalSession), 'Send the customer to `url`', { data: EXAMPLES.portal }) },
  }),
  getBillingUsage: createRoute({
    method: 'get',
    path: '/usage',
    operationId: 'getBillingUsage',
    tags,
    security,
    summary: 'Get current usage',
    responses: { 200: jsonResponse(envelope(BillingUsage), 'This month’s usage against the plan’s limits', { data: EXAMPLES.usage }) },
  }),
};
