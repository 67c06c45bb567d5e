/** The operations of routes/api-keys.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../schemas/api-keys.js';
import { envelope, errorResponses, idParam, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { API_KEY_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['API keys'];
const security = API_KEY_SECURITY;

export const apiKeysOperations = {
  listApiKeys: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listApiKeys',
    tags,
    security,
    summary: 'List API keys',
    responses: { 200: jsonResponse(list(ApiKey), 'The keys, without their values', EXAMPLES.list) },
  }),
  createApiKey: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createApiKey',
    tags,
    security,
    summary: 'Create API key',
    request: jsonBody(CreateApiKeyBody, EXAMPLES.createBody),
    responses: { 201: jsonResponse(envelope(CreatedApiKey), 'The key; its value is shown only here', { data: EXAMPLES.created }) },
  }),
  revokeApiKey: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'revokeApiKey',
    tags,
    security,
    summary: 'Revoke API key',
    request: { params: idParam(EXAMPLES.id) },
    responses: { 200: jsonResponse(envelope(ApiKey), 'The revoked key', { data: EXAMPLES.revoked }), ...errorResponses(404) },
  }),
};
