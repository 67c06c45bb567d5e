/** The operations of routes/api-keys.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../schemas/api-keys.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
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
    responses: { 200: jsonResponse(list(ApiKey), 'The keys, without their values') },
  }),
  createApiKey: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createApiKey',
    tags,
    security,
    summary: 'Create API key',
    request: jsonBody(CreateApiKeyBody),
    responses: { 201: jsonResponse(envelope(CreatedApiKey), 'The key; its value is shown only here') },
  }),
  revokeApiKey: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'revokeApiKey',
    tags,
    security,
    summary: 'Revoke API key',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(ApiKey), 'The revoked key'), ...errorResponses(404) },
  }),
};
