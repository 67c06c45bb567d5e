/** Analytics (spec part 4 and 8; D15): the periods and the answer's shape. */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp } from './common.js';

export const ANALYTICS_PERIODS = ['7d', '30d', '90d'] as const;

export const AnalyticsQuery = z.object({
  period: z
    .enum(ANALYTICS_PERIODS, { error: 'period must be one of 7d, 30d, 90d' })
    .openapi({ param: { name: 'period', in: 'query', required: true }, example: '7d' }),
});

const Count = z.number().int().min(0);

const DeliveryCounts = z
  .object({ succeeded: Count, failed: Count, dead: Count, pending: Count })
  .openapi('DeliveryCounts', { description: 'Webhook deliveries created in the span, by their status now' });

const Day = z.object({
  date: z.string().openapi({ example: '2026-11-21' }),
  newUsers: Count,
  activeUsers: Count,
  signIns: Count,
  walletsCreated: Count,
  transactions: Count,
  apiCalls: Count,
  deliveries: DeliveryCounts,
});

export const Analytics = z
  .object({
    period: z.enum(ANALYTICS_PERIODS),
    from: IsoTimestamp.openapi({ description: 'Start of the first UTC day of the period (emulator clock)' }),
    to: IsoTimestamp.openapi({ description: 'Now, on the emulator clock' }),
    totals: z.object({
      newUsers: Count.openapi({ description: 'Users that came into being as non-guests (a converted guest counts when converted)' }),
      activeUsers: Count.openapi({ description: 'Distinct users with a sign-in (a session opened) in the period' }),
      signIns: Count,
      signInsByMethod: z.object({ passkey: Count, telegram: Count, guest: Count, convert: Count }),
      walletsCreated: Count,
      transactions: Count.openapi({ description: 'Completed ledger transactions (tx.completed)' }),
      apiCalls: Count.openapi({ description: 'Authenticated /v1 calls that were not rate-limited' }),
      deliveries: DeliveryCounts,
    }),
    series: z.array(Day).openapi({ description: 'One entry per UTC day, oldest first; today is the last' }),
  })
  .openapi('Analytics');

export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export type AnalyticsView = z.infer<typeof Analytics>;
export type DeliveryCounts = z.infer<typeof DeliveryCounts>;
