/** Health: `/healthz` (the process answers) and `/readyz` (the store can be written), without a key. */
import { createRoute } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { envelope, jsonResponse, ErrorEnvelope } from '../schemas/common.js';
import { Health, Ready } from '../schemas/health.js';
import { newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Health'];
const startedAt = Date.now();

export function healthRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/healthz',
        operationId: 'checkHealth',
        tags,
        summary: 'Health check',
        security: [],
        responses: { 200: jsonResponse(envelope(Health), 'The process is alive') },
      }),
      (c) => c.json({ data: { status: 'ok' as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) } }, 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/readyz',
        operationId: 'checkReadiness',
        tags,
        summary: 'Readiness check',
        security: [],
        responses: {
          200: jsonResponse(envelope(Ready), 'Ready: the store can be written'),
          503: jsonResponse(ErrorEnvelope, 'Not ready: the store cannot be written (the data dir, or the database: the message says why)'),
        },
      }),
      async (c) => {
        // After a failed write, probe the backend again so readiness recovers once it is writable.
        if (!rt.store.writable && !(await rt.store.probe())) {
          throw new ApiError('store_unavailable', `Not ready: ${rt.store.unavailableReason}`);
        }
        return c.json({ data: { status: 'ready' as const, store: rt.store.kind } }, 200);
      },
    );
}
