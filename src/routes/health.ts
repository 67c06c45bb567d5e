/** Health: `/healthz` (the process answers) and `/readyz` (the store can be written), without a key. */
import { ApiError } from '../errors.js';
import { healthOperations } from '../operations/health.js';
import type { Runtime } from '../runtime.js';
import { newRouter } from './router.js';

const startedAt = Date.now();

export function healthRoutes(rt: Runtime) {
  return newRouter()
    .openapi(healthOperations.checkHealth, (c) => c.json({ data: { status: 'ok' as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) } }, 200))
    .openapi(healthOperations.checkReadiness, async (c) => {
      // After a failed write, probe the backend again so readiness recovers once it is writable.
      if (!rt.store.writable && !(await rt.store.probe())) {
        throw new ApiError('store_unavailable', `Not ready: ${rt.store.unavailableReason}`);
      }
      return c.json({ data: { status: 'ready' as const, store: rt.store.kind } }, 200);
    });
}
