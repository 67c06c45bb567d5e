/** /v1/tenant: the tenant the API key acts for; patch its name and settings. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { envelope, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { Tenant, UpdateTenantBody } from '../schemas/tenant.js';
import { tenantView, updateTenant } from '../services/tenant.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Tenant'];
const security = API_KEY_SECURITY;

export function tenantRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'getTenant',
        tags,
        security,
        summary: 'Get current tenant',
        responses: { 200: jsonResponse(envelope(Tenant), 'The tenant') },
      }),
      (c) => c.json({ data: tenantView(c.get('tenant')) }, 200),
    )
    .openapi(
      createRoute({
        method: 'patch',
        path: '/',
        operationId: 'updateTenant',
        tags,
        security,
        summary: 'Update tenant settings',
        request: optionalJsonBody(UpdateTenantBody),
        responses: { 200: jsonResponse(envelope(Tenant), 'The updated tenant') },
      }),
      async (c) => c.json({ data: tenantView(await updateTenant(rt, c.get('tenant').id, c.req.valid('json'))) }, 200),
    );
}
