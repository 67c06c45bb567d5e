/** The operation of routes/openapi.ts: GET /openapi.json, served without a key (D3). */
import { createRoute } from '@hono/zod-openapi';
import { jsonResponse } from '../schemas/common.js';
import { OpenApiDocument } from '../schemas/openapi.js';
import type { ApiTag } from './tags.js';

export const openApiOperations = {
  getOpenApiDocument: createRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['OpenAPI' satisfies ApiTag],
    summary: 'Get this OpenAPI document',
    security: [],
    responses: {
      200: jsonResponse(OpenApiDocument, 'The OpenAPI 3.1 document of the API', {
        openapi: '3.1.0',
        info: { title: 'Wallet and Identity Service API', version: '0.1.0' },
        paths: { '/v1/healthz': { get: { operationId: 'checkHealth' } } },
      }),
    },
  }),
};
