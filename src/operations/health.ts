/** The operations of routes/health.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { envelope, jsonResponse, ErrorEnvelope } from '../schemas/common.js';
import { Health, Ready } from '../schemas/health.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Health'];

export const healthOperations = {
  checkHealth: createRoute({
    method: 'get',
    path: '/healthz',
    operationId: 'checkHealth',
    tags,
    summary: 'Health check',
    security: [],
    responses: { 200: jsonResponse(envelope(Health), 'The process is alive', { data: { status: 'ok', uptimeSeconds: 42.5 } }) },
  }),
  checkReadiness: createRoute({
    method: 'get',
    path: '/readyz',
    operationId: 'checkReadiness',
    tags,
    summary: 'Readiness check',
    security: [],
    responses: {
      200: jsonResponse(envelope(Ready), 'Ready: the store can be written', { data: { status: 'ready', store: 'file' } }),
      503: jsonResponse(ErrorEnvelope, 'Not ready: the store cannot be written (the data dir, or the database: the message says why)'),
    },
  }),
};
