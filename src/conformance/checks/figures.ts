/**
 * Figures the API computes, checked against inputs the run controls: analytics for
 * each period (the totals are the sums of the series, the window is the period's days ending
 * on the emulator's today, and it slides with the clock), billing usage (the calls counted,
 * the month it counts). A figure right for one period and wrong for another fails.
 */
import { Analytics, ANALYTICS_PERIODS, type AnalyticsView } from '../../schemas/analytics.js';
import type { Client } from '../../client/index.js';
import { BillingUsage } from '../../schemas/billing.js';
import { CreatedGuest } from '../../schemas/guests.js';
import { Wallet } from '../../schemas/wallets.js';
import { envelope } from '../../schemas/common.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import type { Check, CheckContext } from '../types.js';
import { advanceClock, emulatorNow } from './sessions.js';
import { createUser, ownTenant } from './support.js';

/** How long a usage figure may lag the calls it counts (processes store their counts every 5 s). */
const USAGE_SETTLE_MS = 8_000;

const DAY_MS = 86_400_000;
const DAYS: Record<AnalyticsView['period'], number> = { '7d': 7, '30d': 30, '90d': 90 };
const SUMMED = ['newUsers', 'signIns', 'walletsCreated', 'transactions', 'apiCalls'] as const;
const DELIVERY_STATES = ['succeeded', 'failed', 'dead', 'pending'] as const;

async function analytics(client: Client, period: AnalyticsView['period']) {
  const result = await client.analytics.get(period);
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
        const [before, { result, data }, after] = [await emulatorNow(ctx), await analytics(ctx.client, period), await emulatorNow(ctx)];
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
      await Promise.all([createUser(ctx, 'analytics-a'), createUser(ctx, 'analytics-b')]);
      const before = Object.fromEntries(await Promise.all(ANALYTICS_PERIODS.map(async (p) => [p, await analytics(ctx.client, p)] as const)));
      const day = before['7d']!.data.series.at(-1)!;
      for (const period of ANALYTICS_PERIODS) {
        const { data, result } = before[period]!;
        const same = data.series.at(-1)!;
        expect(same.newUsers >= 2, `part 8: new users count in the ${period} window`, `today's newUsers is ${same.newUsers} after two were created`, result);
      }
      await advanceClock(ctx, '7d');
      // The three windows are read at once: each only reads, after the move.
      const [moved, ...later] = await Promise.all([analytics(ctx.client, '7d'), analytics(ctx.client, '30d'), analytics(ctx.client, '90d')]);
      expect(
        !moved.data.series.some((d) => d.date === day.date),
        "part 8: the 7d window ends on the emulator's today (it slides with the clock)",
        `${day.date} is still in the 7d series 7 days later`,
        moved.result,
      );
      for (const [index, period] of (['30d', '90d'] as const).entries()) {
        const { data, result } = later[index]!;
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

/** Real milliseconds between reads of a figure that lags (several processes behind one address). */
const SETTLE_STEP_MS = 250;

/**
 * Figures moved by exactly what one check did. It works in a tenant of its own, made through
 * the control plane: no other check and no other caller of the emulator calls it, so every
 * call and record of that tenant between its two reads is the check's. The calls are counted whichever side of a read a deployment
 * counts it on: between two reads a figure of calls moves by the calls made between them, plus one read.
 */
export const exactFigureChecks: Check[] = [
  {
    id: 'analytics.moves-exactly',
    tags: ['analytics', 'billing', 'figures'],
    description:
      "in a tenant of its own: a new user, a guest and its wallet move today's newUsers, signIns and walletsCreated (analytics) and monthlyActiveUsers and wallets (billing usage) by exactly one each, and apiCalls in both by exactly the calls made",
    spec: 'part 4 (Billing: current usage), part 8 (analytics), D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'holds', why: "holds a guest session, and reads today's figures twice" },
    readsBack: ['createWallet'],
    run: async (ctx) => {
      // Every call and record of the tenant between two reads counts: a tenant no one else calls,
      // not the run's (other checks, or other callers of a shared emulator, make calls in that one).
      const own = await ownTenant(ctx, 'tally');
      for (let attempt = 1; ; attempt += 1) {
        const turned = await movesExactly(ctx, own);
        if (!turned) return;
        // The emulator's day turned between the reads: the figures are of two days; once more.
        if (attempt === 2) throw new CheckSkip("the emulator's day turned between the reads twice");
        ctx.note("the emulator's day turned between the reads: measured again");
      }
    },
  },
];

async function usage(client: Client) {
  const result = await client.billing.usage();
  return { result, data: expectShape(result, envelope(BillingUsage), 'D15: GET /billing/usage').data };
}

/** One measure: reads, a user, a guest and its wallet, reads again. Answers whether the day turned between the reads. */
async function movesExactly(ctx: CheckContext, own: Client): Promise<boolean> {
  const before = { usage: await usage(own), analytics: await analytics(own, '7d') };
  expectStatus(await own.request('POST', '/users', { body: { email: ctx.email('tally'), name: `Conformance ${ctx.runId}` } }), 201, 'part 4: POST /users');
  const made = await own.guests.create();
  const { data: guestData } = expectShape(made, envelope(CreatedGuest), 'part 4: POST /guests answers the guest and its session');
  const guest = { token: guestData.session.token, userId: guestData.user.id };
  const claimed = await own.users.createWallet(guest.token);
  expectStatus(claimed, 201, 'part 4: POST /users/me/wallet claims the guest user wallet');
  // Calls between the analytics reads: the user, the guest, the wallet; between the usage reads, those and each analytics read.
  const calls = 3;
  let after = await analytics(own, '7d');
  let analyticsReads = 1;
  for (
    const until = Date.now() + USAGE_SETTLE_MS;
    after.data.totals.apiCalls - before.analytics.data.totals.apiCalls < calls + analyticsReads && Date.now() < until;
  ) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    after = await analytics(own, '7d');
    analyticsReads += 1;
  }
  let later = await usage(own);
  let usageReads = 1;
  const usageCalls = (): number => 1 + calls + analyticsReads + usageReads;
  for (const until = Date.now() + USAGE_SETTLE_MS; later.data.usage.apiCalls - before.usage.data.usage.apiCalls < usageCalls() && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    later = await usage(own);
    usageReads += 1;
  }
  const today = before.analytics.data.series.at(-1)!;
  const same = after.data.series.at(-1)!;
  if (same.date !== today.date || later.data.period.from !== before.usage.data.period.from) return true;

  const rule = "D15/part 8: today's analytics move by exactly what the run did";
  const moved = (name: 'newUsers' | 'signIns' | 'walletsCreated' | 'apiCalls') => same[name] - today[name];
  const want = { newUsers: 1, signIns: 1, walletsCreated: 1, apiCalls: calls + analyticsReads } as const;
  for (const name of Object.keys(want) as Array<keyof typeof want>) {
    expect(moved(name) === want[name], rule, `${name} moved by ${moved(name)} on ${today.date}, not ${want[name]}`, after.result);
    const total = after.data.totals[name] - before.analytics.data.totals[name];
    expect(total === want[name], rule, `totals.${name} moved by ${total}, not ${want[name]}`, after.result);
  }
  const billing = "D15: this month's billing usage moves by exactly what the run did";
  const grew = (name: 'apiCalls' | 'monthlyActiveUsers' | 'wallets') => later.data.usage[name] - before.usage.data.usage[name];
  const wantUsage = { apiCalls: usageCalls(), monthlyActiveUsers: 1, wallets: 1 } as const;
  for (const name of Object.keys(wantUsage) as Array<keyof typeof wantUsage>) {
    expect(grew(name) === wantUsage[name], billing, `usage.${name} moved by ${grew(name)}, not ${wantUsage[name]}`, later.result);
  }
  // After the figures (its own call would count between them): the wallet is read as the claim answered it.
  const read = await own.users.getWallet(guest.token);
  const { data: wallet } = expectShape(read, envelope(Wallet), 'D15: GET /users/me/wallet');
  const answered = claimed.ok ? claimed.body.data : undefined;
  expect(
    wallet.id === answered?.id && wallet.publicKey === answered.publicKey && wallet.userId === guest.userId,
    'D15: GET /users/me/wallet reads back the wallet the claim answered',
    `${wallet.id} ${wallet.publicKey}, claimed ${answered?.id} ${answered?.publicKey}`,
    read,
  );
  return false;
}
