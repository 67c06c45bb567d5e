/**
 * Results, not shapes: breakages a shape check cannot see — a wrong state, a wrong
 * figure, a wrong window, a wrong transition, an error without the clock's times — each through
 * a proxy in front of the emulator, each failing the check that names it with a reason naming
 * the rule. `conformance-breakages.test.ts` holds the first breakages and shows the unbroken
 * proxy passing the whole suite, these checks included.
 */
import { describe, expect, it } from 'vitest';
import { editPayload } from '../src/test-support/broken-server.js';
import { breakageTarget, itFailsOnEach, is, onOk, onStatus, json, type BreakageCase as Case, type Body } from '../src/test-support/breakage-run.js';

const target = breakageTarget();
const onGone = (method: string, path: RegExp, edit: (body: Body) => void) => onStatus(410, method, path, edit);
const ANALYTICS = /^\/v1\/analytics\?/;
const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/** State kept by the breakages that need it (a stale answer, a key revoked), reset before each case. */
let memory: Record<string, unknown> = {};

const CASES: Case[] = [
  // Analytics: figures, windows, days.
  {
    name: 'a total is not the sum of its series',
    breakage: { response: onOk('GET', ANALYTICS, (b) => void (b['data'].totals.newUsers += 1)) },
    failing: 'analytics.totals-are-sums',
    rule: 'the 7d figures: totals.newUsers is',
  },
  {
    name: '30d answers the 7d figures',
    breakage: { request: (q) => (is(q, 'GET', /^\/v1\/analytics\?period=30d/) ? { ...q, path: '/v1/analytics?period=7d' } : undefined) },
    failing: 'analytics.totals-are-sums',
    rule: 'the 30d figures: the series holds 7 days, not 30',
  },
  {
    name: 'from is a day early',
    breakage: { response: onOk('GET', ANALYTICS, (b) => void (b['data'].from = `${dayBefore(String(b['data'].from).slice(0, 10))}T00:00:00.000Z`)) },
    failing: 'analytics.totals-are-sums',
    rule: 'from is',
  },
  {
    name: 'the series ends yesterday',
    breakage: { response: onOk('GET', ANALYTICS, (b) => b['data'].series.forEach((day: Body) => void (day['date'] = dayBefore(day['date'])))) },
    failing: 'analytics.totals-are-sums',
    rule: 'the last day is',
  },
  {
    name: 'signInsByMethod does not add up to signIns',
    breakage: { response: onOk('GET', ANALYTICS, (b) => void (b['data'].totals.signInsByMethod.guest += 2)) },
    failing: 'analytics.totals-are-sums',
    rule: 'signInsByMethod sums to',
  },
  {
    name: 'new users are never counted',
    breakage: {
      response: onOk('GET', ANALYTICS, (b) => {
        b['data'].totals.newUsers = 0;
        b['data'].series.forEach((day: Body) => void (day['newUsers'] = 0));
      }),
    },
    failing: 'analytics.window-slides',
    rule: "new users count in the 7d window: today's newUsers is 0",
  },
  {
    name: 'the 7d window does not slide with the clock (a stale answer)',
    breakage: {
      response: (q, r) => {
        if (!(is(q, 'GET', /^\/v1\/analytics\?period=7d/) && r.status === 200)) return undefined;
        memory['7d'] ??= r.body;
        return { ...r, body: memory['7d'] as string };
      },
    },
    failing: 'analytics.window-slides',
    rule: 'the 7d window ends on the emulator',
  },
  {
    name: 'a past day is recounted in the 30d window',
    breakage: { response: onOk('GET', /^\/v1\/analytics\?period=30d/, (b) => void (b['data'].series[0].newUsers += 1)) },
    failing: 'analytics.window-slides',
    rule: 'a past day keeps its figures in the 30d window',
  },
  // Billing usage.
  {
    name: 'usage does not count calls',
    breakage: { response: onOk('GET', /^\/v1\/billing\/usage/, (b) => void (b['data'].usage.apiCalls = 5)) },
    failing: 'billing.usage-figures',
    rule: 'usage.apiCalls counts the calls made: apiCalls grew by 0',
  },
  {
    name: 'usage counts from the start of last month',
    breakage: {
      response: onOk('GET', /^\/v1\/billing\/usage/, (b) => {
        const from = new Date(b['data'].period.from as string);
        b['data'].period.from = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - 1, 1)).toISOString();
      }),
    },
    failing: 'billing.usage-figures',
    rule: 'usage counts this calendar month (UTC, emulator clock): period.from is',
  },
  // States in listings and reads.
  {
    name: 'the webhook listing always says enabled',
    breakage: { response: onOk('GET', /^\/v1\/webhooks$/, (b) => b['data'].forEach((h: Body) => void (h['enabled'] = true))) },
    failing: 'webhooks.listed-state',
    rule: 'the listing reports the state the PATCH set: listed enabled after enabled: false',
  },
  {
    name: 'the webhook listing shows the events it was created with',
    breakage: { response: onOk('GET', /^\/v1\/webhooks$/, (b) => b['data'].forEach((h: Body) => void (h['events'] = ['billing.subscription.updated']))) },
    failing: 'webhooks.listed-state',
    rule: 'the listing reports the events the PATCH set',
  },
  {
    name: 'a revoked key is listed active',
    breakage: {
      response: onOk('GET', /^\/v1\/api-keys$/, (b) =>
        b['data'].forEach((k: Body) => {
          k['status'] = 'active';
          k['revokedAt'] = null;
        }),
      ),
    },
    failing: 'api-keys.listed-state',
    rule: 'a revoked key is listed revoked, with revokedAt',
  },
  {
    name: 'revoking one key lists every key revoked',
    breakage: {
      response: (q, r) => {
        if (is(q, 'DELETE', /^\/v1\/api-keys\//) && r.status === 200) memory['revoked'] = true;
        if (!(memory['revoked'] === true && is(q, 'GET', /^\/v1\/api-keys$/) && r.status === 200)) return undefined;
        return json(r, (b) =>
          b['data'].forEach((k: Body) => {
            k['status'] = 'revoked';
            k['revokedAt'] ??= new Date().toISOString();
          }),
        );
      },
    },
    failing: 'api-keys.listed-state',
    rule: 'revoking one key leaves the others active',
  },
  {
    name: 'a read reports every user basic',
    breakage: { response: onOk('GET', /^\/v1\/users\/usr_/, (b) => void (b['data'].trustLevel = 'basic')) },
    failing: 'users.trust-level-read',
    rule: 'a read reports the trust level the user has: basic, created verified',
  },
  {
    name: 'the user listing reports a stale trust level',
    breakage: { response: onOk('GET', /^\/v1\/users\?/, (b) => b['data'].forEach((u: Body) => void (u['trustLevel'] = 'guest'))) },
    failing: 'users.trust-level-read',
    rule: 'the listing reports the trust level the user has',
  },
  {
    name: 'the deliveries status filter is ignored',
    breakage: { request: (q) => (is(q, 'GET', /^\/v1\/webhooks\/whk_\w+\/deliveries\?status=failed/) ? { ...q, path: q.path.split('?')[0]! } : undefined) },
    failing: 'webhooks.delivery-status-filter',
    rule: '?status=failed lists only failed deliveries',
  },
  {
    name: 'a succeeded delivery is missing under ?status=succeeded',
    breakage: { response: onOk('GET', /^\/v1\/webhooks\/whk_\w+\/deliveries\?status=succeeded/, (b) => void (b['data'] = [])) },
    failing: 'webhooks.delivery-status-filter',
    rule: 'the delivery is listed under the status it has: missing under succeeded',
  },
  // Errors the clock caused carry its times.
  {
    name: 'an expired guest session answers 410 without the times',
    breakage: { response: onGone('GET', /^\/v1\/guests\/gst_/, (b) => void (b['details'] = [])) },
    failing: 'guests.ttl-expiry',
    rule: 'a guest session the clock ended names the emulator and the real time in details',
  },
  {
    name: "an expired session's 410 names real time as the emulator's",
    breakage: { response: onGone('GET', /^\/v1\/mfa\/status/, (b) => b['details'].forEach((d: Body) => void (d['emulatorNow'] = d['realNow']))) },
    failing: 'guests.ttl-expiry',
    rule: 'a session token the clock ended names the emulator and the real time in details: emulatorNow',
  },
  {
    name: 'an expired delegated session answers 410 without the emulator time',
    breakage: { response: onGone('POST', /^\/v1\/delegated-sessions\/dsn_\w+\/query/, (b) => b['details'].forEach((d: Body) => void delete d['emulatorNow'])) },
    failing: 'delegated-sessions.expiry',
    rule: 'a session the clock ended names the emulator and the real time in details: no entry of details carries emulatorNow and realNow',
  },
  {
    name: 'an expired passkey challenge answers 410 without the times',
    breakage: { response: onGone('POST', /^\/v1\/auth\/passkey\/login-verify/, (b) => void (b['details'] = [])) },
    failing: 'passkeys.challenge-expiry',
    rule: 'a challenge the clock ended names the emulator and the real time in details',
  },
  {
    name: 'a passkey challenge outlives its 5 minutes',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/auth\/passkey\/login-verify/) && r.status === 410
          ? { ...r, status: 400, body: '{"error":"bad assertion","code":"webauthn_verification_failed","details":[]}' }
          : undefined,
    },
    failing: 'passkeys.challenge-expiry',
    rule: 'a challenge lasts 5 minutes on the emulator clock',
  },
  // The payload the spec fixes.
  {
    name: 'user.created carries email null',
    breakage: { delivery: (d) => (d.body.includes('"user.created"') ? editPayload(d, (p) => void ((p['data'] as Body)['email'] = null)) : undefined) },
    failing: 'webhooks.user-created.data',
    rule: 'user.created data holds userId, email, partyId: email',
  },
];

describe('the conformance suite against wrong states and wrong figures', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });

  it('covers each new check of states and figures with at least two breakages', () => {
    const byCheck = (prefix: string) => CASES.filter((c) => c.failing.startsWith(prefix)).length;
    for (const prefix of ['analytics.', 'billing.', 'webhooks.', 'api-keys.', 'users.']) expect(byCheck(prefix), prefix).toBeGreaterThanOrEqual(2);
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });
});
