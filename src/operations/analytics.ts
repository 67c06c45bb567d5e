/** The operations of routes/analytics.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { Analytics, AnalyticsQuery } from '../schemas/analytics.js';
import { envelope, jsonResponse, paramExample } from '../schemas/common.js';
import { ANALYTICS_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Analytics'];

export const analyticsOperations = {
  getAnalytics: createRoute({
    method: 'get',
    path: '/',
    operationId: 'getAnalytics',
    tags,
    security: API_KEY_SECURITY,
    summary: 'Analytics for the period',
    description: 'Totals and a daily series over the last 7, 30 or 90 UTC days of the emulator clock, today included.',
    request: { query: AnalyticsQuery.extend({ period: paramExample(AnalyticsQuery.shape.period, 'period', 'query', EXAMPLES.period) }) },
    responses: { 200: jsonResponse(envelope(Analytics), 'The analytics', { data: EXAMPLES.analytics }) },
  }),
};
