/** /v1/analytics: the tenant's usage statistics for 7d, 30d or 90d. */
import { analyticsOperations } from '../operations/analytics.js';
import type { Runtime } from '../runtime.js';
import { analytics } from '../services/analytics.js';
import { newRouter } from './router.js';

export function analyticsRoutes(rt: Runtime) {
  return newRouter().openapi(analyticsOperations.getAnalytics, (c) => c.json({ data: analytics(rt, c.get('tenant').id, c.req.valid('query').period) }, 200));
}
