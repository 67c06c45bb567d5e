/** /v1/api-keys: list (never the values), create (the value once), revoke. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../schemas/api-keys.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['API keys'];
const security = API_KEY_SECURITY;

export function apiKeysRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'listApiKeys',
        tags,
        security,
        summary: 'List API keys',
        responses: { 200: jsonResponse(list(ApiKey), 'The keys, without their values') },
      }),
      (c) => c.json({ data: listApiKeys(rt, c.get('tenant').id) }, 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createApiKey',
        tags,
        security,
        summary: 'Create API key',
        request: jsonBody(CreateApiKeyBody),
        responses: { 201: jsonResponse(envelope(CreatedApiKey), 'The key; its value is shown only here') },
      }),
      async (c) => {
        c.header('cache-control', 'no-store');
        return c.json({ data: await createApiKey(rt, c.get('tenant').id, c.req.valid('json').name) }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'revokeApiKey',
        tags,
        security,
        summary: 'Revoke API key',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(ApiKey), 'The revoked key'), ...errorResponses(404) },
      }),
      async (c) => c.json({ data: await revokeApiKey(rt, c.get('tenant').id, c.req.valid('param').id) }, 200),
    );
}
