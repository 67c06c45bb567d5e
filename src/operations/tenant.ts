/** The operations of routes/tenant.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { envelope, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { Tenant, UpdateTenantBody } from '../schemas/tenant.js';
import { TENANT_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Tenant'];
const security = API_KEY_SECURITY;

export const tenantOperations = {
  getTenant: createRoute({
    method: 'get',
    path: '/',
    operationId: 'getTenant',
    tags,
    security,
    summary: 'Get current tenant',
    responses: { 200: jsonResponse(envelope(Tenant), 'The tenant', { data: EXAMPLES.tenant }) },
  }),
  updateTenant: createRoute({
    method: 'patch',
    path: '/',
    operationId: 'updateTenant',
    tags,
    security,
    summary: 'Update tenant settings',
    request: optionalJsonBody(UpdateTenantBody, EXAMPLES.updateBody),
    responses: { 200: jsonResponse(envelope(Tenant), 'The updated tenant', { data: EXAMPLES.updated }) },
  }),
};
