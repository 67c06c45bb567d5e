/**
 * Rate limits, fault injection and ledger events (spec part 6, 7, 8; D11, D16): the
 * emulator answers 429 with Retry-After over the limit, the control plane's faults show up as
 * answers, and a transaction announces tx.completed to the webhooks subscribed to it.
 */
import { EVENT_ID_HEADER } from '../../webhooks/signature.js';
import { CheckSkip, TargetUnreachable, expect, expectStatus } from '../expect.js';
import { expectError, expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { claimedWallet, HOLDS_SESSION } from './sessions.js';
import { createKey, removal } from './support.js';
import { arrival, arrivalTimeout, expectValidSignature, header, wireWebhook } from './webhook-support.js';

/** Above this limit a check would need too many requests to prove the limit. */
const MAX_PROVABLE_LIMIT = 2_000;
/**
 * Requests the rate-limit check keeps in flight: at a far target's round trip (150 ms) that is
 * over a thousand a second, well past any refill it can prove; and the check stops at the first
 * 429 instead of waiting for a wave to end.
 */
const IN_FLIGHT = 200;
/** The most the rate-limit check sends, in limits' worth, before it gives up. */
const MAX_SENT_LIMITS = 8;

/**
 * The key the rate-limit check floods: that of a throwaway tenant on the `free` plan (D16: a
 * bucket of 40) made through the control plane and removed with all it holds at the end, or,
 * where the control plane makes no tenants, a fresh key of the run's tenant.
 */
async function freePlanKey(ctx: CheckContext): Promise<{ value: string }> {
  const made = await ctx.client.emulator.tenants.create({ name: ctx.name('rate-limit'), plan: 'free', template: null });
  if (!made.ok) return createKey(ctx, 'rate-limit');
  const { tenant, apiKey } = made.body.data;
  ctx.defer({ description: `tenant ${tenant.id} (rate limit)`, run: () => removal(ctx.client.emulator.tenants.remove(tenant.id)) });
  return { value: apiKey };
}

export const rateLimitChecks: Check[] = [
  {
    id: 'rate-limits.429',
    tags: ['rate-limits'],
    description:
      'over the limit the key gets 429 rate_limited with Retry-After in seconds; answers carry RateLimit-* headers whose limit is the one enforced, and a 429 has none remaining',
    spec: 'part 7 (429), part 8 (requests beyond the rate limit get 429), D16',
    profile: 'emulator',
    creates: true,
    long: true,
    // The most its flood sends, and the calls around it.
    budget: MAX_PROVABLE_LIMIT * MAX_SENT_LIMITS + 16,
    uses: {
      floods: true,
      why: 'keeps a bucket of requests in flight: they would hold up the checks beside it, and those would slow the rate it must outrun',
    },
    run: async (ctx) => {
      // A fresh key has a full bucket of its own, so the run's key is never held up; where the
      // control plane makes tenants, that key is of a tenant of the check's own on the free plan,
      // whose small bucket one wave of requests empties however busy the target is.
      const key = await freePlanKey(ctx);
      const first = await ctx.unthrottled.request('GET', '/tenant', { apiKey: key.value });
      const limit = Number(first.headers.get('ratelimit-limit'));
      if (first.headers.get('ratelimit-limit') === null)
        throw new CheckSkip('no RateLimit-Limit header: rate limits are off on this emulator (--rate-limit off)');
      expect(
        first.headers.get('ratelimit-remaining') !== null && first.headers.get('ratelimit-reset') !== null,
        'D16: every answer carries RateLimit-Limit, -Remaining and -Reset',
        'a RateLimit header is missing',
        first,
      );
      if (!(limit > 0) || limit > MAX_PROVABLE_LIMIT) throw new CheckSkip(`the limit is ${limit} requests; too many to prove in a run`);
      // D16: the bucket holds `limit` (twice the rate) and refills at limit / 2 per second, so
      // within t seconds at most limit + limit / 2 * t requests may pass. Keep requests going,
      // IN_FLIGHT at a time, until one is refused, or until more than that has passed (a real
      // break), or give up after MAX_SENT_LIMITS limits' worth if the target is too slow for us
      // to outrun its refill (nothing proven either way).
      const started = performance.now();
      const seconds = (): number => (performance.now() - started) / 1000;
      const allowed = (): number => limit + (limit / 2) * seconds();
      let sent = 0;
      let passed = 0;
      let timedOut = 0;
      let limited: typeof first | undefined;
      const keepSending = async (): Promise<void> => {
        while (limited === undefined && timedOut === 0 && sent < limit * MAX_SENT_LIMITS && passed <= allowed() * 1.1 + 10) {
          sent += 1;
          let result: typeof first;
          try {
            result = await ctx.unthrottled.request('GET', '/tenant', { apiKey: key.value });
          } catch (error) {
            // This check's own flood kept a call waiting past the timeout: a slow target, not a broken rule.
            if (!(error instanceof TargetUnreachable && error.timedOut)) throw error;
            timedOut += 1;
            return;
          }
          if (result.status === 429) limited ??= result;
          else passed += 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, limit) }, keepSending));
      if (limited === undefined) {
        expect(
          passed <= allowed() * 1.1 + 10,
          'part 8: requests beyond the rate limit get 429',
          `${passed} requests in ${seconds().toFixed(1)} s passed; the limit allows ${Math.floor(allowed())}`,
        );
        if (timedOut > 0)
          throw new CheckSkip(
            `${timedOut} of ${sent} requests got no answer within the timeout while up to ${IN_FLIGHT} were in flight; the limit could not be proven`,
          );
        throw new CheckSkip(`${sent} requests in ${seconds().toFixed(1)} s did not outrun the refill; the limit could not be proven`);
      }
      ctx.note(`429 after ${passed} requests passed in ${seconds().toFixed(1)} s (limit ${limit})`);
      expectErrorCode(limited, 429, 'rate_limited', 'D16: 429 rate_limited');
      // The figures the headers give are the ones enforced: the fresh key's full bucket (less the
      // probe that found the key and the first call) passes before the first 429, and no more
      // than the limit and its refill pass in all.
      expect(
        passed <= allowed() * 1.1 + 10,
        'D16: the limit RateLimit-Limit advertises is the one enforced',
        `${passed} requests in ${seconds().toFixed(1)} s passed; RateLimit-Limit ${limit} allows ${Math.floor(allowed())}`,
        limited,
      );
      expect(
        passed + 2 >= Math.floor(limit * 0.9),
        "D16: a fresh key's full bucket passes RateLimit-Limit requests",
        `429 after ${passed} requests; RateLimit-Limit is ${limit}`,
        limited,
      );
      const remaining = limited.headers.get('ratelimit-remaining');
      expect(remaining === '0', 'D16: a 429 has RateLimit-Remaining 0', `RateLimit-Remaining "${remaining}"`, limited);
      const retryAfter = limited.headers.get('retry-after') ?? '';
      expect(
        /^\d+$/.test(retryAfter) && Number(retryAfter) >= 1,
        'D16: a 429 says when to come back in Retry-After (seconds)',
        `Retry-After "${retryAfter}"`,
        limited,
      );
      // The bucket refills limit / 2 a second: one request may pass again within 2 / limit s.
      const refill = Math.ceil(2 / limit);
      expect(
        Number(retryAfter) <= refill + 1,
        'D16: Retry-After is when one request may pass again',
        `Retry-After ${retryAfter} s; the bucket refills one request in ${refill} s`,
        limited,
      );
    },
  },
];

export const limitChecks: Check[] = [
  {
    id: 'emulator.faults',
    tags: ['emulator', 'faults'],
    description: 'POST /_emulator/faults makes the next matching request answer that status with the error envelope, then normal again',
    spec: 'D11',
    profile: 'emulator',
    creates: true,
    // Runs beside any check: a fault matches by path for every caller, and this path (the run's
    // own, with no wildcard) is one no other check asks for.
    run: async (ctx) => {
      const path = `/apps/app_conformance${ctx.runId}fault`;
      const fault = await ctx.client.emulator.request('POST', '/faults', { body: { method: 'GET', path, status: 503, count: 1 } });
      expectStatus(fault, [200, 201], 'D11: POST /_emulator/faults');
      ctx.defer({ description: `fault on GET ${path}`, run: async () => void (await ctx.client.request('GET', path)) });
      expectError(await ctx.client.request('GET', path), 503, 'D11: the next matching request answers the injected status');
      expectError(await ctx.client.request('GET', path), 404, 'D11: after count requests the fault is gone');
    },
  },
  {
    id: 'webhooks.tx-completed',
    tags: ['webhooks', 'delegated-sessions', 'delivery'],
    description: 'a transaction executed through a delegated session sends tx.completed, signed, to webhooks subscribed to it',
    spec: 'part 6 (event types: tx.completed), D8',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'tx', ['tx.completed']);
      const wallet = await claimedWallet(ctx);
      const session = await ctx.client.delegatedSessions.create(wallet.token, {
        walletId: wallet.walletId,
        permissions: { templates: ['*'], choices: ['*'] },
        expiresIn: '10m',
      });
      expectStatus(session, 201, 'D15: a delegated session');
      const { id, token } = session.ok ? session.body.data : { id: '', token: '' };
      const tx = await ctx.client.delegatedSessions.execute(token, id, { create: { templateId: '#conformance:Conformance:Tx', payload: {} } });
      expectStatus(tx, 200, 'D15: execute');
      const txId = tx.ok ? tx.body.data.id : '';
      // Other checks running at once execute transactions too: their events reach this webhook as well.
      const delivery = await arrival(
        ctx.receiver.waitForMatch(hook.url, (d) => txId !== '' && d.body.toString('utf8').includes(txId), arrivalTimeout(ctx)),
        'D8: execute emits tx.completed for the transaction',
        tx,
      );
      const payload = JSON.parse(delivery.body.toString('utf8')) as { type?: unknown; id?: unknown; data?: unknown };
      expect(
        payload.type === 'tx.completed' && JSON.stringify(payload.data).includes(txId),
        'D8: tx.completed carries the transaction',
        JSON.stringify(payload).slice(0, 300),
      );
      expect(header(delivery, EVENT_ID_HEADER) === payload.id, 'part 6: X-Service-Event-Id is the event id', String(payload.id));
      expectValidSignature(delivery, hook.secret, 'part 6: tx.completed is signed like every delivery');
    },
  },
];
