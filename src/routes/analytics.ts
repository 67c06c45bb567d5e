/** /v1/analytics: the tenant's usage statistics for 7d, 30d or 90d. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { Analytics, AnalyticsQuery } from '../schemas/analytics.js';
import { envelope, jsonResponse } from '../schemas/common.js';
import { analytics } from '../services/analytics.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Analytics'];

export function analyticsRoutes(rt: Runtime) {
  return newRouter().openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'getAnalytics',
      tags,
      security: API_KEY_SECURITY,
      summary: 'Analytics for the period',
      description: 'Totals and a daily series over the last 7, 30 or 90 UTC days of the emulator clock, today included.',
      request: { query: AnalyticsQuery },
      responses: { 200: jsonResponse(envelope(Analytics), 'The analytics') },
    }),
    (c) => c.json({ data: analytics(rt, c.get('tenant').id, c.req.valid('query').period) }, 200),
  );
}
