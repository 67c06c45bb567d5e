/**
 * Every effect read back, in the areas of webhooks, wallets, key shares, delegated sessions,
 * custom domains, billing and analytics: a deployment that answers a write well but does not
 * do it — a webhook update its deliveries do not obey, a delete that answers while the record
 * stays, a figure that moves by the wrong amount, a nextAttemptAt that is not when the retry
 * comes, a field sent that is not read back — fails the check that declares the operation in
 * `readsBack`, with a reason naming the rule.
 */
import { describe } from 'vitest';
import type { ProxiedRequest } from '../src/test-support/broken-server.js';
import { breakageTarget, itFailsOnEach, is, onOk, onStatus, type BreakageCase as Case, type Body } from '../src/test-support/breakage-run.js';

const target = breakageTarget();
const JSON_HEADERS = { 'content-type': 'application/json' };
/** What a breakage keeps between answers (the ids it already faked), reset before each case. */
let memory: Record<string, unknown> = {};

const patchOfWebhook = (q: ProxiedRequest): boolean => is(q, 'PATCH', /^\/v1\/webhooks\/whk_\w+$/);
const bodyOf = (q: ProxiedRequest): Record<string, unknown> => JSON.parse(q.body === '' ? '{}' : q.body) as Record<string, unknown>;
/** A PATCH of a webhook whose body `matches`, sent on as `edit` makes it. */
const onWebhookPatch =
  (matches: (body: Record<string, unknown>) => boolean, edit: (body: Record<string, unknown>) => Record<string, unknown>) => (q: ProxiedRequest) =>
    patchOfWebhook(q) && matches(bodyOf(q)) ? { ...q, body: JSON.stringify(edit(bodyOf(q))) } : undefined;

const CASES: Case[] = [
  // Webhooks: what a create or update sent, read back in the listing and obeyed by deliveries.
  {
    name: "the listing loses a new webhook's description",
    breakage: { response: onOk('GET', /^\/v1\/webhooks$/, (b) => b['data'].forEach((h: Record<string, unknown>) => void (h['description'] = null))) },
    failing: 'webhooks.create-shape',
    rule: 'GET /webhooks lists the new webhook as POST sent it, enabled: listed description null',
  },
  {
    name: 'a PATCH does not apply the url it sent',
    breakage: {
      request: onWebhookPatch(
        (b) => typeof b['url'] === 'string',
        ({ url: _url, ...rest }) => rest,
      ),
    },
    failing: 'webhooks.update',
    rule: 'GET /webhooks lists the url and events PATCH sent: listed url',
  },
  {
    name: 'a webhook patched to enabled: true is answered but stays disabled',
    breakage: {
      request: (q) =>
        patchOfWebhook(q) && bodyOf(q)['enabled'] === true ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"enabled":true}}' } : undefined,
    },
    failing: 'webhooks.disabled',
    rule: 'a webhook enabled again is sent the events it subscribes to: no user.created delivery was planned',
  },
  {
    name: 'a PATCH that adds user.created to the events is not obeyed by deliveries',
    breakage: {
      request: onWebhookPatch(
        (b) => JSON.stringify(b['events']) === '["user.created"]',
        (b) => ({ ...b, events: ['api_key.revoked'] }),
      ),
    },
    failing: 'webhooks.subscription',
    rule: 'a webhook is sent the types PATCH added to its events: no user.created delivery was planned',
  },
  {
    name: 'a PATCH that drops user.created from the events still delivers it',
    breakage: {
      request: onWebhookPatch(
        (b) => JSON.stringify(b['events']) === '["api_key.revoked"]',
        (b) => ({ ...b, events: ['api_key.revoked', 'user.created'] }),
      ),
    },
    failing: 'webhooks.subscription',
    rule: 'a webhook is sent no type PATCH removed from its events: 1 user.created deliveries planned',
  },
  {
    name: 'a deleted webhook is answered deleted but stays',
    breakage: {
      request: (q) => {
        if (!is(q, 'DELETE', /^\/v1\/webhooks\/whk_\w+$/) || memory[q.path] === true) return undefined;
        memory[q.path] = true;
        return { status: 200, headers: JSON_HEADERS, body: '{"data":{"deleted":true}}' };
      },
    },
    failing: 'webhooks.delete',
    rule: 'a deleted webhook is no longer listed',
  },
  {
    name: 'the deliveries listing shows the test delivery failed',
    breakage: {
      response: onOk('GET', /^\/v1\/webhooks\/whk_\w+\/deliveries$/, (b) => b['data'].forEach((d: Record<string, unknown>) => void (d['status'] = 'failed'))),
    },
    failing: 'webhooks.deliveries-shape',
    rule: 'the deliveries listing reads back the delivery the test answered: listed failed',
  },
  {
    // The retry comes when it is due; the delivery says half a minute later.
    name: 'a waiting delivery reports a nextAttemptAt 30 s after its retry comes',
    breakage: {
      response: onOk('GET', /^\/v1\/webhooks\/whk_\w+\/deliveries\?status=failed/, (b) =>
        b['data'].forEach((d: Record<string, unknown>) => {
          if (typeof d['nextAttemptAt'] === 'string') d['nextAttemptAt'] = new Date(Date.parse(d['nextAttemptAt']) + 30_000).toISOString();
        }),
      ),
    },
    failing: 'webhooks.next-attempt-at',
    rule: 'retry 1 comes at the nextAttemptAt the delivery reported: it came before',
  },
  // Wallets, key shares and delegated sessions: the write confirmed by the read of another operation.
  {
    name: 'GET /users/me/wallet reads another public key than the claim answered',
    breakage: { response: onOk('GET', /^\/v1\/users\/me\/wallet$/, (b) => void (b['data'].publicKey = 'ab'.repeat(32))) },
    failing: 'wallets.claim',
    rule: "GET /users/me/wallet reads back the wallet the claim answered, the user's own: publicKey",
  },
  {
    name: "a recovered key is not the wallet's as GET reads it",
    breakage: { response: onOk('GET', /^\/v1\/users\/me\/wallet$/, (b) => void (b['data'].publicKey = 'ab'.repeat(32))) },
    failing: 'mpc.recover',
    rule: 'the recovered seed does not give the public key GET /users/me/wallet reads',
  },
  {
    name: 'a stored key share is retrieved without its label',
    breakage: { response: onOk('GET', /^\/v1\/mpc\/shares\/wal_/, (b) => b['data'].forEach((share: Record<string, unknown>) => void (share['label'] = null))) },
    failing: 'mpc.shares',
    rule: 'the stored share is retrieved as POST /mpc/shares sent it: retrieved index 2, label null',
  },
  {
    name: 'deleting key shares answers a count while the shares stay',
    breakage: {
      request: (q) => {
        if (!is(q, 'DELETE', /^\/v1\/mpc\/shares\/wal_/) || memory['faked'] === true) return undefined;
        memory['faked'] = true;
        return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ data: { walletId: q.path.split('/').pop(), deleted: 1 } }) };
      },
    },
    failing: 'mpc.shares',
    rule: 'deleted key shares are no longer retrieved: 1 stored shares still listed',
  },
  {
    name: 'a new delegated session is read with other permissions',
    breakage: { response: onOk('GET', /^\/v1\/delegated-sessions\/dsn_\w+$/, (b) => void (b['data'].permissions.choices = ['*'])) },
    failing: 'delegated-sessions.create',
    rule: 'GET /delegated-sessions/:id reads back the session POST made: permissions',
  },
  {
    name: 'query shows the contract with another payload than execute created',
    breakage: {
      response: onOk('POST', /^\/v1\/delegated-sessions\/dsn_\w+\/query/, (b) =>
        b['data'].forEach((c: Record<string, unknown>) => void (c['payload'] = { run: 'another' })),
      ),
    },
    failing: 'delegated-sessions.execute-query',
    rule: 'query reads back the contract execute created',
  },
  {
    name: "a delegated session's usage does not count its queries",
    breakage: { response: onOk('GET', /^\/v1\/delegated-sessions\/dsn_\w+$/, (b) => void (b['data'].usage.queries = 0)) },
    failing: 'delegated-sessions.execute-query',
    rule: "a delegated session's usage counts exactly the commands and queries it ran",
  },
  {
    name: 'a delegated session reports an expiresAt a minute after it ends',
    breakage: {
      response: onOk(
        'POST',
        /^\/v1\/delegated-sessions$/,
        (b) => void (b['data'].expiresAt = new Date(Date.parse(b['data'].expiresAt) + 60_000).toISOString()),
      ),
    },
    failing: 'delegated-sessions.expiry',
    rule: 'a delegated session works until its expiresAt',
  },
  // Custom domains and billing.
  {
    name: 'a domain removal answers while the domain stays',
    breakage: {
      request: (q) => {
        if (!is(q, 'DELETE', /^\/v1\/custom-domains$/) || memory['faked'] === true) return undefined;
        memory['faked'] = true;
        return { status: 200, headers: JSON_HEADERS, body: '{"data":{"domain":"x.conformance.example","deleted":true}}' };
      },
    },
    failing: 'custom-domains.lifecycle',
    rule: 'a removed domain is not found to verify (404)',
  },
  {
    name: 'registering a domain again reads another verification record',
    breakage: { response: onStatus(200, 'POST', /^\/v1\/custom-domains$/, (b) => void (b['data'].verification.value = 'svc-verify=other')) },
    failing: 'custom-domains.lifecycle',
    rule: 'registering the same domain again reads back the one registered',
  },
  {
    name: 'a checkout page offers another plan than the checkout asked',
    breakage: {
      response: (q, r) =>
        is(q, 'GET', /^\/_provider\/checkout\//) ? { ...r, body: r.body.replace(/ (free|pro|enterprise) plan/g, ' other plan') } : undefined,
    },
    failing: 'billing.sessions',
    rule: "the checkout's provider page offers the plan the checkout asked",
  },
  // Figures that move by other than what the run did.
  ...(
    [
      [
        'newUsers on the analytics day move by two for one user',
        /^\/v1\/analytics\?/,
        (d: Body) => {
          d['series'].at(-1).newUsers += 1;
          d['totals'].newUsers += 1;
        },
        "today's analytics move by exactly what the run did: newUsers moved by 2",
      ],
      [
        'a claimed wallet is not counted in the billing usage',
        /^\/v1\/billing\/usage/,
        (d: Body) => void (d['usage'].wallets -= 1),
        'usage.wallets moved by 0, not 1',
      ],
      ['the billing usage counts calls twice', /^\/v1\/billing\/usage/, (d: Body) => void (d['usage'].apiCalls *= 2), 'usage.apiCalls moved by'],
    ] as const
  ).map(([name, path, edit, rule]): Case => ({
    name,
    // The first read stands; the later ones are off by the edit.
    breakage: {
      response: onOk('GET', path, (b) => {
        const key = `read ${path.source}`;
        memory[key] = ((memory[key] as number | undefined) ?? 0) + 1;
        if ((memory[key] as number) > 1) edit(b['data'] as Body);
      }),
    },
    failing: 'analytics.moves-exactly',
    rule,
  })),
];

describe('the conformance suite reads back every effect: webhooks, wallets, domains, billing and figures', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });
});
