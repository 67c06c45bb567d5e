/**
 * Analytics (spec part 4, D10, D15): what really happened in a tenant over the last
 * 7, 30 or 90 UTC days of the emulator clock (today included), as totals and a daily series.
 * Sources: the users collection and `user.created` events (new users), the sessions
 * collection (sign-ins, active users), `wallet.created` and `tx.completed` events, the
 * deliveries collection, and the usage meter (API calls).
 */
import type { Runtime } from '../runtime.js';
import type { AnalyticsPeriod, AnalyticsView, DeliveryCounts } from '../schemas/analytics.js';
import type { UserSessionRecord } from '../store/records.js';
import { usageMeter, utcDate } from './usage.js';

export const PERIOD_DAYS: Record<AnalyticsPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };
const DAY_MS = 86_400_000;

type SignInMethod = UserSessionRecord['method'];
const SIGN_IN_METHODS: readonly SignInMethod[] = ['passkey', 'telegram', 'guest', 'convert'];

interface Day {
  date: string;
  newUsers: number;
  activeUsers: Set<string>;
  signIns: number;
  walletsCreated: number;
  transactions: number;
  apiCalls: number;
  deliveries: DeliveryCounts;
}

function noDeliveries(): DeliveryCounts {
  return { succeeded: 0, failed: 0, dead: 0, pending: 0 };
}

/** The tenant's analytics for `period`, ending now on the emulator clock. */
export function analytics(rt: Runtime, tenantId: string, period: AnalyticsPeriod): AnalyticsView {
  const nowMs = rt.clock.nowMs();
  const todayStart = Date.parse(`${utcDate(nowMs)}T00:00:00.000Z`);
  const fromMs = todayStart - (PERIOD_DAYS[period] - 1) * DAY_MS;
  const days: Day[] = [];
  for (let start = fromMs; start <= todayStart; start += DAY_MS) {
    days.push({
      date: utcDate(start),
      newUsers: 0,
      activeUsers: new Set(),
      signIns: 0,
      walletsCreated: 0,
      transactions: 0,
      apiCalls: 0,
      deliveries: noDeliveries(),
    });
  }
  /** The day an ISO time falls on, or undefined outside [from, now]. */
  const dayOf = (iso: string): Day | undefined => {
    const ms = Date.parse(iso);
    return ms < fromMs || ms > nowMs ? undefined : days[Math.floor((ms - fromMs) / DAY_MS)];
  };

  // A user is new when it came into being as a non-guest: its user.created event (which a
  // guest conversion also emits), or its createdAt when none was emitted (seeded users).
  const announced = new Map<string, string>();
  for (const event of rt.store.ofTenant('events', tenantId)) {
    const day = dayOf(event.created_at);
    if (event.type === 'user.created' && typeof event.data['userId'] === 'string') announced.set(event.data['userId'], event.created_at);
    else if (event.type === 'wallet.created' && day) day.walletsCreated += 1;
    else if (event.type === 'tx.completed' && day) day.transactions += 1;
  }
  for (const user of rt.store.ofTenant('users', tenantId)) {
    if (user.trustLevel === 'guest') continue;
    const day = dayOf(announced.get(user.id) ?? user.createdAt);
    if (day) day.newUsers += 1;
  }

  const activeUsers = new Set<string>();
  const signInsByMethod = Object.fromEntries(SIGN_IN_METHODS.map((method) => [method, 0])) as Record<SignInMethod, number>;
  for (const session of rt.store.ofTenant('sessions', tenantId)) {
    const day = dayOf(session.createdAt);
    if (!day) continue;
    day.signIns += 1;
    day.activeUsers.add(session.userId);
    activeUsers.add(session.userId);
    signInsByMethod[session.method] += 1;
  }

  for (const delivery of rt.store.ofTenant('deliveries', tenantId)) {
    const day = dayOf(delivery.createdAt);
    if (day) day.deliveries[delivery.status] += 1;
  }

  const last = days[days.length - 1]!;
  for (const [date, calls] of usageMeter(rt).callsByDay(tenantId, days[0]!.date, last.date)) {
    const day = days[Math.round((Date.parse(`${date}T00:00:00.000Z`) - fromMs) / DAY_MS)];
    if (day) day.apiCalls += calls;
  }

  const sum = (pick: (day: Day) => number): number => days.reduce((total, day) => total + pick(day), 0);
  const deliveries = noDeliveries();
  for (const day of days) for (const status of Object.keys(deliveries) as (keyof DeliveryCounts)[]) deliveries[status] += day.deliveries[status];
  return {
    period,
    from: new Date(fromMs).toISOString(),
    to: new Date(nowMs).toISOString(),
    totals: {
      newUsers: sum((d) => d.newUsers),
      activeUsers: activeUsers.size,
      signIns: sum((d) => d.signIns),
      signInsByMethod,
      walletsCreated: sum((d) => d.walletsCreated),
      transactions: sum((d) => d.transactions),
      apiCalls: sum((d) => d.apiCalls),
      deliveries,
    },
    series: days.map((day) => ({
      date: day.date,
      newUsers: day.newUsers,
      activeUsers: day.activeUsers.size,
      signIns: day.signIns,
      walletsCreated: day.walletsCreated,
      transactions: day.transactions,
      apiCalls: day.apiCalls,
      deliveries: day.deliveries,
    })),
  };
}
