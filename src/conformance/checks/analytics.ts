/**
 * Analytics (spec part 4, 8; D15): the three periods answer, any other is refused, and
 * the answer has its shape. The figures themselves are checked in figures.ts.
 */
import { Analytics, ANALYTICS_PERIODS } from '../../schemas/analytics.js';
import { envelope } from '../../schemas/common.js';
import { expect, expectShape } from '../expect.js';
import { expectError, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';

export const analyticsChecks: Check[] = [
  ...ANALYTICS_PERIODS.map((period): Check => ({
    id: `analytics.period-${period}`,
    tags: ['analytics'],
    description: `GET /analytics?period=${period} answers 200 with the success envelope`,
    spec: 'part 4 (Analytics: period one of 7d, 30d, 90d), part 8',
    profile: 'spec',
    creates: false,
    run: async (ctx) =>
      void expectSuccess(await ctx.client.request('GET', '/analytics', { query: { period } }), 200, `part 8: ${period} is an analytics period`),
  })),
  ...['1y', '7', 'week'].map((period): Check => ({
    id: `analytics.bad-period-${period}`,
    tags: ['analytics', 'validation'],
    description: `GET /analytics?period=${period} is 400 with the error envelope`,
    spec: 'part 4 (period one of 7d, 30d, 90d), part 7 (400)',
    profile: 'spec',
    creates: false,
    run: async (ctx) =>
      void expectError(await ctx.client.request('GET', '/analytics', { query: { period } }), 400, 'part 4/8: the analytics periods are 7d, 30d and 90d only'),
  })),
  {
    id: 'analytics.shape',
    tags: ['analytics'],
    description: 'GET /analytics answers period, from, to, totals and a daily series',
    spec: 'D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.analytics.get('30d');
      const { data } = expectShape(result, envelope(Analytics), 'D15: the analytics fields');
      expect(
        data.period === '30d' && Date.parse(data.from) < Date.parse(data.to),
        'D15: the period asked, from before to',
        `${data.period} ${data.from}…${data.to}`,
        result,
      );
    },
  },
];
