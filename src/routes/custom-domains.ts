/** /v1/custom-domains: register the tenant's domain, verify it over DNS, remove it. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { EmptyBody, envelope, errorResponses, jsonBody, jsonResponse, optionalJsonBody } from '../schemas/common.js';
import { CustomDomain, DeletedDomain, RegisterDomainBody } from '../schemas/custom-domains.js';
import { customDomainView, registerDomain, removeDomain, verifyDomain } from '../services/custom-domains.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Custom domains'];
const security = API_KEY_SECURITY;

export function customDomainsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'registerCustomDomain',
        tags,
        security,
        summary: 'Register domain',
        request: jsonBody(RegisterDomainBody),
        description: 'Answers the TXT record to create. The same domain again answers 200 with the existing record.',
        responses: {
          201: jsonResponse(envelope(CustomDomain), 'The domain, pending verification'),
          200: jsonResponse(envelope(CustomDomain), 'The domain was already registered'),
          ...errorResponses(409),
        },
      }),
      async (c) => {
        const { record, created } = await registerDomain(rt, c.get('tenant').id, c.req.valid('json').domain);
        return created ? c.json({ data: customDomainView(record) }, 201) : c.json({ data: customDomainView(record) }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/verify',
        operationId: 'verifyCustomDomain',
        tags,
        security,
        summary: 'Verify DNS ownership',
        request: optionalJsonBody(EmptyBody),
        description: 'Looks up the TXT record; 400 dns_verification_failed lists what was found, 503 dns_unavailable when DNS does not answer.',
        responses: {
          200: jsonResponse(envelope(CustomDomain), 'The verified domain'),
          ...errorResponses(404, [503, 'dns_unavailable: DNS did not answer; or store_unavailable']),
        },
      }),
      async (c) => c.json({ data: customDomainView(await verifyDomain(rt, c.get('tenant').id)) }, 200),
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/',
        operationId: 'removeCustomDomain',
        tags,
        security,
        summary: 'Remove domain',
        responses: { 200: jsonResponse(envelope(DeletedDomain), 'The domain is gone'), ...errorResponses(404) },
      }),
      async (c) => {
        const removed = await removeDomain(rt, c.get('tenant').id);
        return c.json({ data: { domain: removed.domain, deleted: true as const } }, 200);
      },
    );
}
