/**
 * Lifecycles, listings, transitions, health and errors: a record's state after each step the run took — an app
 * changed and deleted, a guest active then converted, a delegated session revoked, MFA
 * enabled, a delivery retried from the DLQ — and the order and filters of listings. Each
 * breakage answers the right shape with a wrong state, and the check that names the rule fails.
 */
import { describe } from 'vitest';
import { breakageTarget, itFailsOnEach, is, json, onOk, type BreakageCase as Case, type Body } from '../src/test-support/breakage-run.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';

const target = breakageTarget();
/** What a breakage keeps between answers (the delivery a retry answered), reset before each case. */
let memory: Record<string, unknown> = {};

const CASES: Case[] = [
  {
    name: 'PATCH /apps/:id answers the name it had',
    breakage: { response: onOk('PATCH', /^\/v1\/apps\/app_/, (b) => void (b['data'].name = 'conf-stale-name')) },
    failing: 'apps.update',
    rule: 'PATCH changes only the fields sent: name conf-stale-name',
  },
  {
    name: 'a deleted app is still read',
    breakage: {
      response: (q, r) =>
        is(q, 'GET', /^\/v1\/apps\/app_/) && r.status === 404 ? { ...r, status: 200, body: '{"data":{"id":"app_x","name":"x"}}' } : undefined,
    },
    failing: 'apps.delete',
    rule: 'a deleted app is not found (404): expected HTTP 404, got 200',
  },
  {
    name: 'users are listed oldest first',
    breakage: { response: onOk('GET', /^\/v1\/users(\?|$)/, (b) => void (b['data'] = [...b['data']].reverse())) },
    failing: 'users.newest-first',
    rule: 'D7: order is newest first',
  },
  {
    name: 'the user trust_level filter is ignored',
    breakage: { request: (q) => (is(q, 'GET', /^\/v1\/users\?.*trust_level=/) ? { ...q, path: q.path.replace(/trust_level=\w+&?/, '') } : undefined) },
    failing: 'users.trust-level',
    rule: 'D7: trust_level filters: user',
  },
  {
    name: 'a converted guest stays a guest',
    breakage: { response: onOk('POST', /^\/v1\/guests\/gst_\w+\/convert/, (b) => void (b['data'].user.trustLevel = 'guest')) },
    failing: 'guests.convert',
    rule: 'the same user, now basic with the e-mail',
  },
  {
    name: 'a new guest session is read as expired',
    breakage: { response: onOk('GET', /^\/v1\/guests\/gst_/, (b) => void (b['data'].status = 'expired')) },
    failing: 'guests.create',
    rule: 'a new guest session is read active: status "expired"',
  },
  {
    name: 'a revoked delegated session is read as active',
    breakage: { response: onOk('GET', /^\/v1\/delegated-sessions\/dsn_/, (b) => void (b['data'].status = 'active')) },
    failing: 'delegated-sessions.revoked-410',
    rule: 'a revoked session is read revoked: status active',
  },
  {
    name: 'MFA status says disabled once enabled',
    breakage: { response: onOk('GET', /^\/v1\/mfa\/status/, (b) => void (b['data'].enabled = false)) },
    failing: 'mfa.enable',
    rule: 'verify-setup enables MFA: status says disabled',
  },
  {
    name: 'a DLQ retry that succeeded is answered dead',
    breakage: { response: onOk('POST', /^\/_emulator\/deliveries\/dlv_\w+\/retry/, (b) => void (b['data'].status = 'dead')) },
    failing: 'webhooks.dlq-retry',
    rule: 'the retried delivery succeeds and its attempts list grows: status dead',
  },
  {
    name: 'the deliveries listing loses the last attempt',
    breakage: { response: onOk('GET', /^\/v1\/webhooks\/whk_\w+\/deliveries/, (b) => b['data'].forEach((d: Body) => void d['attempts'].pop())) },
    failing: 'webhooks.attempts-listed',
    rule: 'every attempt is recorded with its status code: 5 attempts',
  },
  {
    name: 'PATCH /tenant answers the old name',
    breakage: { response: onOk('PATCH', /^\/v1\/tenant$/, (b) => void (b['data'].name = 'Acme (stale)')) },
    failing: 'tenant.update',
    rule: 'PATCH changes only what was sent: name Acme (stale)',
  },
  {
    name: 'a passkey sign-up makes a guest',
    breakage: { response: onOk('POST', /^\/v1\/auth\/passkey\/register-verify/, (b) => void (b['data'].user.trustLevel = 'guest')) },
    failing: 'passkeys.register',
    rule: 'the new user holds the e-mail',
  },
  {
    name: 'a delivery retried from the DLQ stays in it',
    breakage: {
      response: (q, r) => {
        if (is(q, 'POST', /^\/_emulator\/deliveries\/dlv_\w+\/retry/) && r.status === 200) memory['retried'] = (JSON.parse(r.body) as Body)['data'];
        if (!(is(q, 'GET', /^\/_emulator\/dlq/) && r.status === 200 && memory['retried'] !== undefined)) return undefined;
        return json(r, (b) => void b['data'].push({ ...(memory['retried'] as Body), status: 'dead' }));
      },
    },
    failing: 'webhooks.dlq-retry',
    rule: 'a retried delivery that succeeded has left the DLQ',
  },
  {
    name: 'a retried delivery is still listed dead',
    breakage: {
      response: (q, r) => {
        if (is(q, 'POST', /^\/_emulator\/deliveries\/dlv_\w+\/retry/) && r.status === 200) memory['retried'] = (JSON.parse(r.body) as Body)['data'];
        if (!(is(q, 'GET', /^\/v1\/webhooks\/whk_\w+\/deliveries\?status=dead/) && memory['retried'] !== undefined)) return undefined;
        return json(r, (b) => void b['data'].push({ ...(memory['retried'] as Body), status: 'dead' }));
      },
    },
    failing: 'webhooks.dlq-retry',
    rule: 'a retried delivery that succeeded has left ?status=dead',
  },
  // Transitions a step must make, or refuse to make.
  {
    name: 'a delegated session runs past maxCommands',
    breakage: { response: (q, r) => (is(q, 'POST', /^\/v1\/delegated-sessions\/dsn_\w+\/execute/) && r.status === 403 ? { ...r, status: 200 } : undefined) },
    failing: 'delegated-sessions.max-commands',
    rule: 'maxCommands caps the commands in all: expected HTTP 403, got 200',
  },
  {
    name: 'a command outside the permissions runs',
    breakage: { response: (q, r) => (is(q, 'POST', /^\/v1\/delegated-sessions\/dsn_\w+\/execute/) && r.status === 403 ? { ...r, status: 200 } : undefined) },
    failing: 'delegated-sessions.permissions',
    rule: 'outside the permissions is 403 permission_denied: expected HTTP 403, got 200',
  },
  {
    name: 'MFA never locks',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/mfa\/challenge/) && r.status === 429
          ? { ...r, status: 201, body: '{"data":{"challengeId":"mfc_x","expiresAt":"2030-01-01T00:00:00.000Z"}}' }
          : undefined,
    },
    failing: 'mfa.lock',
    rule: 'after 5 wrong codes MFA is locked (429 mfa_locked): expected HTTP 429',
  },
  {
    name: 'a second wallet claim succeeds',
    breakage: { response: (q, r) => (is(q, 'POST', /^\/v1\/users\/me\/wallet/) && r.status === 409 ? { ...r, status: 201 } : undefined) },
    failing: 'wallets.claim',
    rule: 'a wallet is claimed once: expected HTTP 409, got 201',
  },
  {
    name: 'a removed custom domain can be removed again',
    breakage: {
      response: (q, r) =>
        is(q, 'DELETE', /^\/v1\/custom-domains$/) && r.status === 404 ? { ...r, status: 200, body: '{"data":{"deleted":true}}' } : undefined,
    },
    failing: 'custom-domains.lifecycle',
    rule: 'no domain left to remove is 404: expected HTTP 404, got 200',
  },
  {
    name: 'the tenant read shows the Telegram bot token',
    breakage: { response: onOk('GET', /^\/v1\/tenant$/, (b) => void (b['data'].settings.telegram.botToken = '7000000001:AAleakedToken')) },
    failing: 'tenant.shape',
    rule: 'the Telegram bot token is write-only: the answer holds botToken',
  },
  {
    name: 'the widget configuration shows the bot token',
    breakage: { response: onOk('GET', /^\/v1\/auth\/telegram\/widget-config/, (b) => void (b['data'].botToken = '7000000001:AAleakedToken')) },
    failing: 'telegram.widget-config',
    rule: 'the bot token is write-only: the answer holds botToken',
  },
  {
    name: "another tenant's key reads a user",
    breakage: {
      request: (q) =>
        is(q, 'GET', /^\/v1\/users\/usr_/) && q.headers['x-api-key'] === GLOBEX_KEY ? { ...q, headers: { ...q.headers, 'x-api-key': ACME_KEY } } : undefined,
    },
    failing: 'isolation.users',
    rule: 'a key acts for its own tenant only: another tenant',
  },
  {
    name: 'a checkout to an unknown plan is made',
    breakage: {
      response: (q, r) =>
        is(q, 'POST', /^\/v1\/billing\/checkout/) && r.status === 400 ? { ...r, status: 201, body: '{"data":{"id":"cs_test_x","url":"http://x"}}' } : undefined,
    },
    failing: 'billing.sessions',
    rule: 'plan is free, pro or enterprise: expected HTTP 400, got 201',
  },
  // Health and errors: what each answer says, not only that it parses.
  {
    name: 'readyz answers no status',
    breakage: { response: onOk('GET', /^\/(v1\/)?readyz/, (b) => void delete b['data'].status) },
    failing: 'health.shape',
    rule: 'readyz answers { data: { status: "ready" } }',
  },
  {
    name: 'an unknown route is answered 200',
    breakage: { response: (q, r) => (r.status === 404 && /^\/v1\/conformance/.test(q.path) ? { ...r, status: 200, body: '{"data":{}}' } : undefined) },
    failing: 'errors.unknown-route',
    rule: 'unknown routes → 404 not_found: expected HTTP 404, got 200',
  },
  {
    name: 'a body over 1 MiB is answered 400',
    breakage: { response: (_q, r) => (r.status === 413 ? { ...r, status: 400 } : undefined) },
    failing: 'errors.payload-too-large',
    rule: 'bodies over 1 MiB → 413 payload_too_large: expected HTTP 413, got 400',
  },
  {
    name: 'a validation error names no field',
    breakage: { response: (_q, r) => (r.status === 400 && r.body.includes('validation_error') ? json(r, (b) => void (b['details'] = [])) : undefined) },
    failing: 'errors.validation-details',
    rule: 'details name every bad field: paths []',
  },
];

describe('the conformance suite against wrong lifecycles and listings', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });
});
