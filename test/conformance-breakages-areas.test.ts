/**
 * At least three breakages per area of the catalogue: the areas the other breakage
 * files reach least — health, tenant, isolation, sessions, custom domains, Telegram, MFA's clock
 * errors, billing's link window, rate limits, key shares and the control plane — each broken by a
 * proxy in front of the emulator with a wrong state, a wrong figure, a wrong window or a wrong
 * transition, and the check that names the rule failing with it.
 */
import { describe } from 'vitest';
import { breakageTarget, itFailsOnEach, is, onOk, onStatus, type BreakageCase as Case } from '../src/test-support/breakage-run.js';
import type { ProxiedResponse } from '../src/test-support/broken-server.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';

const target = breakageTarget();
/** What a breakage keeps between answers (a first read, a listing before a delete), reset before each case. */
let memory: Record<string, unknown> = {};
const JSON_HEADERS = { 'content-type': 'application/json' };
/** A request of the second tenant's key, sent with the first tenant's: a deployment that mixes tenants up. */
const asFirstTenant = (method: string, path: RegExp) => (q: Parameters<typeof is>[0]) =>
  is(q, method, path) && q.headers['x-api-key'] === GLOBEX_KEY ? { ...q, headers: { ...q.headers, 'x-api-key': ACME_KEY } } : undefined;

/** Edits the RateLimit headers of answers to a key of neither tenant (the rate-limit check's own). */
const onRateLimited =
  (edit: (headers: Record<string, string>, status: number) => void) =>
  (q: Parameters<typeof is>[0], r: ProxiedResponse): ProxiedResponse | undefined => {
    if ([ACME_KEY, GLOBEX_KEY].includes(String(q.headers['x-api-key'])) || r.headers['ratelimit-limit'] === undefined) return undefined;
    const headers = { ...r.headers };
    edit(headers, r.status);
    return { ...r, headers };
  };

const CASES: Case[] = [
  // Health.
  {
    name: 'healthz reports the service down',
    breakage: { response: onOk('GET', /^\/(v1\/)?healthz/, (b) => void (b['data'].status = 'down')) },
    failing: 'health.shape',
    rule: 'healthz answers { data: { status: "ok" } }',
  },
  {
    name: 'the root /healthz asks for a key',
    breakage: {
      request: (q) =>
        is(q, 'GET', /^\/healthz$/) && q.headers['x-api-key'] === undefined
          ? { status: 401, headers: JSON_HEADERS, body: '{"error":"no key","code":"missing_api_key","details":[]}' }
          : undefined,
    },
    failing: 'health.shape',
    rule: '/healthz answers { data: { status: "ok" } }',
  },
  {
    name: '/v1/healthz answers 503',
    breakage: { response: (q, r) => (is(q, 'GET', /^\/v1\/healthz/) ? { ...r, status: 503 } : undefined) },
    failing: 'health.healthz',
    rule: 'part 4: /healthz answers a live service: expected HTTP 200, got 503',
  },
  // Tenant.
  {
    name: 'GET /tenant reads the name it had before the PATCH',
    breakage: {
      response: onOk('GET', /^\/v1\/tenant$/, (b) => {
        memory['name'] ??= b['data'].name;
        b['data'].name = memory['name'];
      }),
    },
    failing: 'tenant.update',
    rule: 'part 4: GET /tenant reads the name PATCH set',
  },
  // Isolation.
  {
    name: "another tenant's key lists a webhook's deliveries",
    breakage: { request: asFirstTenant('GET', /^\/v1\/webhooks\/whk_\w+\/deliveries/) },
    failing: 'isolation.webhooks',
    rule: "a key acts for its own tenant only: another tenant's key got 200",
  },
  {
    name: "another tenant's key sees a key listed",
    breakage: { request: asFirstTenant('GET', /^\/v1\/api-keys$/) },
    failing: 'isolation.api-keys',
    rule: "a key acts for its own tenant only: another tenant's key is listed",
  },
  // Sessions.
  {
    name: 'an unknown session token is served',
    breakage: {
      response: (q, _r) =>
        is(q, 'GET', /^\/v1\/users\/me\/wallet/) && Object.values(q.headers).some((v) => v.includes('conformanceUnknownToken'))
          ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"id":"wal_x"}}' }
          : undefined,
    },
    failing: 'sessions.token-rules',
    rule: 'D4: unknown token → 401 invalid_session: expected HTTP 401, got 200',
  },
  {
    name: 'a request without a session token is answered 403',
    breakage: { response: (q, r) => (is(q, 'GET', /^\/v1\/users\/me\/wallet/) && r.body.includes('missing_session') ? { ...r, status: 403 } : undefined) },
    failing: 'sessions.token-rules',
    rule: 'D4: no token → 401 missing_session: expected HTTP 401, got 403',
  },
  {
    name: 'an unknown session token is said to be missing',
    breakage: { response: onStatus(401, 'GET', /^\/v1\/users\/me\/wallet/, (b) => void (b['code'] = 'missing_session')) },
    failing: 'sessions.token-rules',
    rule: 'D4: unknown token → 401 invalid_session',
  },
  // Custom domains.
  {
    name: 'a domain is verified without its TXT record',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/custom-domains\/verify/) && r.status === 400
          ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"status":"active"}}' }
          : undefined,
    },
    failing: 'custom-domains.lifecycle',
    rule: 'D13: without the TXT record verification fails: got 200',
  },
  {
    name: 'a new domain is registered verified',
    breakage: { response: onOk('POST', /^\/v1\/custom-domains$/, (b) => void (b['data'].status = 'verified')) },
    failing: 'custom-domains.lifecycle',
    rule: 'D13: a new domain is pending until its TXT record is verified: status verified',
  },
  // Telegram, in a tenant of the check's own whose bot token it knows.
  {
    name: 'Telegram data older than 24 h signs in',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/auth\/telegram\/verify/) && r.body.includes('telegram_auth_expired')
          ? { status: 200, headers: JSON_HEADERS, body: '{"data":{}}' }
          : undefined,
    },
    failing: 'telegram.sign-in',
    rule: 'D6: Telegram data older than 24 h on the emulator clock is refused: expected HTTP 401, got 200',
  },
  {
    name: 'telegram_auth_expired names no times',
    breakage: { response: onStatus(401, 'POST', /^\/v1\/auth\/telegram\/verify/, (b) => void (b['details'] = [])) },
    failing: 'telegram.sign-in',
    rule: 'D6/D10: Telegram data the clock judged too old names the emulator and the real time in details',
  },
  {
    name: 'the widget configuration says no token once one is set',
    breakage: { response: onOk('GET', /^\/v1\/auth\/telegram\/widget-config/, (b) => void (b['data'].configured = false)) },
    failing: 'telegram.sign-in',
    rule: 'D3: configured says whether a bot token is set: configured is false once a token is set',
  },
  {
    name: "the widget configuration names another bot's id",
    breakage: { response: onOk('GET', /^\/v1\/auth\/telegram\/widget-config/, (b) => void (b['data'].botId = '1')) },
    failing: 'telegram.sign-in',
    rule: "D15: botId is the token's bot id (before the colon): botId 1",
  },
  {
    name: 'a second Telegram sign-in is another user',
    breakage: {
      response: onOk('POST', /^\/v1\/auth\/telegram\/verify/, (b) => {
        memory['sign-ins'] = Number(memory['sign-ins'] ?? 0) + 1;
        if (memory['sign-ins'] === 2) b['data'].user.id = 'usr_AnotherTelegramUser0000';
      }),
    },
    failing: 'telegram.sign-in',
    rule: 'part 4: a Telegram account signs in as the same user each time',
  },
  // MFA: the errors the emulator clock decides name its time.
  {
    name: 'an MFA challenge outlives its expiresAt',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/mfa\/verify$/) && r.status === 410
          ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"verified":true,"freshUntil":"2030-01-01T00:00:00.000Z"}}' }
          : undefined,
    },
    failing: 'mfa.challenge-expiry',
    rule: 'part 3.3/D5: a challenge past its expiresAt is 410 challenge_expired: expected HTTP 410, got 200',
  },
  {
    name: 'an expired MFA challenge names no times',
    breakage: { response: onStatus(410, 'POST', /^\/v1\/mfa\/verify$/, (b) => void (b['details'] = [])) },
    failing: 'mfa.challenge-expiry',
    rule: 'D6/D10: a challenge the clock ended names the emulator and the real time in details',
  },
  {
    name: "invalid_code does not name the emulator's time",
    breakage: {
      response: onStatus(400, 'POST', /^\/v1\/mfa\/verify$/, (b) => b['details'].forEach((d: Record<string, unknown>) => void delete d['emulatorNow'])),
    },
    failing: 'mfa.wrong-code',
    rule: 'D5/D10: a code judged on the emulator clock names the emulator and the real time in details: no entry of details carries emulatorNow and realNow',
  },
  // Rate limits: the figures the headers give are the ones enforced (free's 20 a second, so any machine outruns the refill).
  {
    name: 'RateLimit-Limit advertises a quarter of the limit enforced',
    breakage: { response: onRateLimited((h) => void (h['ratelimit-limit'] = String(Math.floor(Number(h['ratelimit-limit']) / 4)))) },
    failing: 'rate-limits.429',
    rule: 'part 8: requests beyond the rate limit get 429',
    plan: 'free',
  },
  {
    name: 'RateLimit-Limit advertises four times the limit enforced',
    breakage: { response: onRateLimited((h) => void (h['ratelimit-limit'] = String(Number(h['ratelimit-limit']) * 4))) },
    failing: 'rate-limits.429',
    rule: "D16: a fresh key's full bucket passes RateLimit-Limit requests",
    plan: 'free',
  },
  {
    name: 'a 429 says requests remain',
    breakage: { response: onRateLimited((h, status) => void (status === 429 && (h['ratelimit-remaining'] = h['ratelimit-limit']!))) },
    failing: 'rate-limits.429',
    rule: 'D16: a 429 has RateLimit-Remaining 0',
    plan: 'free',
  },
  {
    name: 'Retry-After says an hour',
    breakage: { response: onRateLimited((h, status) => void (status === 429 && (h['retry-after'] = '3600'))) },
    failing: 'rate-limits.429',
    rule: 'D16: Retry-After is when one request may pass again: Retry-After 3600 s',
    plan: 'free',
  },
  // Billing: a portal link's window on the emulator clock.
  {
    name: 'a billing portal link outlives its expiresAt',
    breakage: { response: (q, r) => (is(q, 'GET', /^\/_provider\/portal\//) && r.status === 410 ? { ...r, status: 200 } : undefined) },
    failing: 'billing.portal-expiry',
    rule: 'part 3.3/D13: a portal link past its expiresAt is gone (410)',
  },
  {
    name: 'a billing portal link closes before its expiresAt',
    breakage: { response: (q, r) => (is(q, 'GET', /^\/_provider\/portal\//) && r.status === 200 ? { ...r, status: 410 } : undefined) },
    failing: 'billing.portal-expiry',
    rule: 'D13: a portal link opens until its expiresAt (emulator clock)',
  },
  // Wallets and key shares (MPC).
  {
    name: "recover answers another key's seed",
    breakage: { response: onOk('POST', /^\/v1\/mpc\/recover/, (b) => void (b['data'].privateKey = 'ab'.repeat(32))) },
    failing: 'mpc.recover',
    rule: 'D13: 2 of 3 shares rebuild the wallet key',
  },
  {
    name: 'one share recovers the key',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/mpc\/recover/) && r.status === 400 ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"privateKey":"00"}}' } : undefined,
    },
    failing: 'mpc.recover',
    rule: 'D13: one share is under the 2-of-3 threshold: expected HTTP 400, got 200',
  },
  {
    name: 'deleting key shares counts none',
    breakage: { response: onOk('DELETE', /^\/v1\/mpc\/shares\/wal_/, (b) => void (b['data'].deleted = 0)) },
    failing: 'mpc.shares',
    rule: 'D15: DELETE /mpc/shares/:walletId counts the stored shares it deleted: deleted 0, 1 stored',
  },
  {
    name: 'a deleted key share is still retrieved',
    breakage: {
      response: (q, r) => {
        if (r.status >= 300) return undefined;
        if (is(q, 'DELETE', /^\/v1\/mpc\/shares\/wal_/)) memory['deleted'] = true;
        if (!is(q, 'GET', /^\/v1\/mpc\/shares\/wal_/)) return undefined;
        if (memory['deleted'] !== true) memory['listed'] = r.body;
        return memory['deleted'] === true ? { ...r, body: memory['listed'] as string } : undefined;
      },
    },
    failing: 'mpc.shares',
    rule: 'part 4: deleted key shares are no longer retrieved: 1 stored shares still listed',
  },
  // The control plane (D10, D11): the clock, the event log and faults.
  {
    name: 'advance answers a clock that moved less than asked',
    breakage: {
      response: onOk('POST', /^\/_emulator\/clock\/advance/, (b) => void (b['data'].now = new Date(Date.parse(b['data'].now) - 1_500).toISOString())),
    },
    failing: 'emulator.clock',
    rule: 'D10: advance {"by":"1s"} moves the clock 1 s: moved',
  },
  {
    name: 'the event log misses the new user',
    breakage: { response: onOk('GET', /^\/_emulator\/events/, (b) => void (b['data'] = [])) },
    failing: 'emulator.events',
    rule: 'D8: every action records its event: no user.created for the new user',
  },
  {
    name: 'a fault of count 1 fires twice',
    breakage: {
      response: (q, r) =>
        is(q, 'GET', /^\/v1\/apps\/app_conformance\w+fault$/) && r.status === 404
          ? { ...r, status: 503, body: '{"error":"injected","code":"fault","details":[]}' }
          : undefined,
    },
    failing: 'emulator.faults',
    rule: 'D11: after count requests the fault is gone',
  },
  {
    name: "a fault comes back without the tenant it was given (one that meets every caller's requests)",
    breakage: { response: onOk('POST', /^\/_emulator\/faults$/, (b) => void (b['data'].tenant = null)) },
    failing: 'statuses.faults-fixed-paths',
    rule: 'D11: the fault names the tenant it was given',
  },
  {
    name: "a fault on every path of a tenant is not answered to that tenant's key",
    breakage: {
      response: (q, r) => {
        const key = q.headers['x-api-key'];
        if (key === undefined || [ACME_KEY, GLOBEX_KEY].includes(String(key)) || r.headers['x-svc-fault'] === undefined || r.status !== 500) return undefined;
        const { 'x-svc-fault': _fault, ...headers } = r.headers;
        return { ...r, status: 200, headers, body: '{"data":{}}' };
      },
    },
    failing: 'statuses.faults-fixed-paths',
    rule: 'answers the injected 500 as internal_error',
  },
];

describe('the conformance suite, three breakages and more in every area', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });
});
