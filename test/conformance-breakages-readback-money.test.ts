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
import { breakageTarget, itFailsOnEach, is, onOk, type BreakageCase as Case } from '../src/test-support/breakage-run.js';

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
];

describe('the conformance suite reads back every effect: webhooks, wallets, domains, billing and figures', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });
});
