/**
 * Figures the API computes, checked against inputs the run controls: analytics for
 * each period (the totals are the sums of the series, the window is the period's days ending
 * on the emulator's today, and it slides with the clock), billing usage (the calls counted,
 * the month it counts). A figure right for one period and wrong for another fails.
 */
import { Analytics, ANALYTICS_PERIODS, type AnalyticsView } from '../../schemas/analytics.js';
import { BillingUsage } from '../../schemas/billing.js';
import { envelope } from '../../schemas/common.js';
import { expect, expectShape } from '../expect.js';
import type { Check, CheckContext } from '../types.js';
import { advanceClock, emulatorNow } from './sessions.js';
import { createUser } from './support.js';

/** How long a usage figure may lag the calls it counts (processes store their counts every 5 s). */
const USAGE_SETTLE_MS = 8_000;

const DAY_MS = 86_400_000;
const DAYS: Record<AnalyticsView['period'], number> = { '7d': 7, '30d': 30, '90d': 90 };
const SUMMED = ['newUsers', 'signIns', 'walletsCreated', 'transactions', 'apiCalls'] as const;
const DELIVERY_STATES = ['succeeded', 'failed', 'dead', 'pending'] as const;

async function analytics(ctx: CheckContext, period: AnalyticsView['period']) {
  const result = await ctx.client.analytics.get(period);
  return { result, data: expectShape(result, envelope(Analytics), `D15: GET /analytics?period=${period}`).data };
}

/** The UTC day of an emulator time, as the series names it. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const figureChecks: Check[] = [
  {
    id: 'analytics.totals-are-sums',
    tags: ['analytics', 'figures'],
    description:
      "for 7d, 30d and 90d: the series has one day per day of the period, ending on the emulator's today, from is its first day, and each total is the sum of the series",
    spec: 'part 8 (analytics for the period), D10, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const period of ANALYTICS_PERIODS) {
        const [before, { result, data }, after] = [await emulatorNow(ctx), await analytics(ctx, period), await emulatorNow(ctx)];
        const rule = `part 8/D15: the ${period} figures`;
        const dates = data.series.map((day) => day.date);
        expect(dates.length === DAYS[period], rule, `the series holds ${dates.length} days, not ${DAYS[period]}`, result);
        const today = dates.at(-1);
        expect(today === dayOf(before) || today === dayOf(after), rule, `the last day is ${today}, not the emulator's today ${dayOf(before)}`, result);
        const first = Date.parse(`${dates[0]}T00:00:00.000Z`);
        expect(Date.parse(data.from) === first, rule, `from is ${data.from}, not the start of the first day ${dates[0]}`, result);
        expect(
          dates.every((date, i) => i === 0 || Date.parse(date) - Date.parse(dates[i - 1]!) === DAY_MS),
          rule,
          'the days are not one after another',
          result,
        );
        for (const name of SUMMED) {
          const sum = data.series.reduce((total, day) => total + day[name], 0);
          expect(data.totals[name] === sum, rule, `totals.${name} is ${data.totals[name]}, the series sums to ${sum}`, result);
        }
        for (const state of DELIVERY_STATES) {
          const sum = data.series.reduce((total, day) => total + day.deliveries[state], 0);
          expect(
            data.totals.deliveries[state] === sum,
            rule,
            `totals.deliveries.${state} is ${data.totals.deliveries[state]}, the series sums to ${sum}`,
            result,
          );
        }
        const byMethod = Object.values(data.totals.signInsByMethod).reduce((total, n) => total + n, 0);
        expect(byMethod === data.totals.signIns, rule, `signInsByMethod sums to ${byMethod}, signIns is ${data.totals.signIns}`, result);
      }
    },
  },
  {
    id: 'analytics.window-slides',
    tags: ['analytics', 'figures', 'clock'],
    description: 'two new users count on their day in every period; 7 days later that day has left the 7d window and is unchanged in 30d and 90d',
    spec: 'part 8 (analytics for the period), D10, D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'moves', why: 'moves the clock 7 days, so the day of its users leaves the 7d window' },
    run: async (ctx) => {
      await createUser(ctx, 'analytics-a');
      await createUser(ctx, 'analytics-b');
      const before = Object.fromEntries(await Promise.all(ANALYTICS_PERIODS.map(async (p) => [p, await analytics(ctx, p)] as const)));
      const day = before['7d']!.data.series.at(-1)!;
      for (const period of ANALYTICS_PERIODS) {
        const { data, result } = before[period]!;
        const same = data.series.at(-1)!;
        expect(same.newUsers >= 2, `part 8: new users count in the ${period} window`, `today's newUsers is ${same.newUsers} after two were created`, result);
      }
      await advanceClock(ctx, '7d');
      const moved = await analytics(ctx, '7d');
      expect(
        !moved.data.series.some((d) => d.date === day.date),
        "part 8: the 7d window ends on the emulator's today (it slides with the clock)",
        `${day.date} is still in the 7d series 7 days later`,
        moved.result,
      );
      for (const period of ['30d', '90d'] as const) {
        const { data, result } = await analytics(ctx, period);
        const was = new Map(before[period]!.data.series.map((d) => [d.date, d.newUsers]));
        const again = data.series.find((d) => d.date === day.date);
        const rule = `part 8: a past day keeps its figures in the ${period} window`;
        expect(again !== undefined, rule, `${day.date} is missing from the ${period} series 7 days later`, result);
        // Users other checks made between the reads may have joined that day, never left it.
        expect(again.newUsers >= (was.get(day.date) ?? 0), rule, `${day.date} had ${was.get(day.date)} new users, now ${again.newUsers}`, result);
        const changed = data.series.find((d) => d.date < day.date && was.has(d.date) && was.get(d.date) !== d.newUsers);
        expect(changed === undefined, rule, `${changed?.date} had ${was.get(changed?.date ?? '')} new users, now ${changed?.newUsers}`, result);
      }
    },
  },
  {
    id: 'billing.usage-figures',
    tags: ['billing', 'figures'],
    description:
      "GET /billing/usage counts this month's calls (three calls later, apiCalls grew by at least three) and its period is this UTC month of the emulator clock",
    spec: 'part 4 (Billing: current usage), D10, D15',
    profile: 'emulator',
    creates: false,
    uses: { clock: 'holds', why: 'compares the usage period with the emulator clock, which a move would carry into another day or month' },
    run: async (ctx) => {
      const read = async () => {
        const result = await ctx.client.billing.usage();
        return { result, data: expectShape(result, envelope(BillingUsage), 'D15: GET /billing/usage').data };
      };
      const first = await read();
      for (let i = 0; i < 3; i += 1) await ctx.client.tenant.get();
      let second = await read();
      // Several processes behind one address each count the calls they answer and store the
      // counts every few seconds: the figure may lag that long, never stay short.
      for (const until = Date.now() + USAGE_SETTLE_MS; second.data.usage.apiCalls - first.data.usage.apiCalls < 3 && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        second = await read();
      }
      const now = await emulatorNow(ctx);
      const grew = second.data.usage.apiCalls - first.data.usage.apiCalls;
      expect(grew >= 3, 'D15: usage.apiCalls counts the calls made', `apiCalls grew by ${grew} over three calls`, second.result);
      const month = new Date(now);
      const start = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
      const from = Date.parse(second.data.period.from);
      // Near midnight on the 1st the month may turn between the reads.
      const turned = new Date(now - 60_000).getUTCMonth() !== month.getUTCMonth();
      expect(
        from === start || turned,
        'D15: usage counts this calendar month (UTC, emulator clock)',
        `period.from is ${second.data.period.from}`,
        second.result,
      );
      const to = Date.parse(second.data.period.to);
      expect(
        Math.abs(to - now) < 60_000,
        'D15: usage counts up to now (emulator clock)',
        `period.to is ${second.data.period.to}, the clock ${new Date(now).toISOString()}`,
        second.result,
      );
    },
  },
];
