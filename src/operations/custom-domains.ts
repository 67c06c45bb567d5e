/** The operations of routes/custom-domains.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { EmptyBody, envelope, errorResponses, jsonBody, jsonResponse, optionalJsonBody } from '../schemas/common.js';
import { CustomDomain, DeletedDomain, RegisterDomainBody } from '../schemas/custom-domains.js';
import { DOMAIN_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Custom domains'];
const security = API_KEY_SECURITY;

export const customDomainsOperations = {
  registerCustomDomain: createRoute({
    method: 'post',
    path: '/',
    operationId: 'registerCustomDomain',
    tags,
    security,
    summary: 'Register domain',
    request: jsonBody(RegisterDomainBody, EXAMPLES.registerBody),
    description: 'Answers the TXT record to create. The same domain again answers 200 with the existing record.',
    responses: {
      201: jsonResponse(envelope(CustomDomain), 'The domain, pending verification', { data: EXAMPLES.registered }),
      200: jsonResponse(envelope(CustomDomain), 'The domain was already registered', { data: EXAMPLES.registered }),
      ...errorResponses(409),
    },
  }),
  verifyCustomDomain: createRoute({
    method: 'post',
    path: '/verify',
    operationId: 'verifyCustomDomain',
    tags,
    security,
    summary: 'Verify DNS ownership',
    request: optionalJsonBody(EmptyBody, {}),
    description: 'Looks up the TXT record; 400 dns_verification_failed lists what was found, 503 dns_unavailable when DNS does not answer.',
    responses: {
      200: jsonResponse(envelope(CustomDomain), 'The verified domain', { data: EXAMPLES.verified }),
      ...errorResponses(404, [503, 'dns_unavailable: DNS did not answer; or store_unavailable']),
    },
  }),
  removeCustomDomain: createRoute({
    method: 'delete',
    path: '/',
    operationId: 'removeCustomDomain',
    tags,
    security,
    summary: 'Remove domain',
    responses: { 200: jsonResponse(envelope(DeletedDomain), 'The domain is gone', { data: EXAMPLES.removed }), ...errorResponses(404) },
  }),
};
