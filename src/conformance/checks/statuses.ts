/**
 * The statuses the target's own OpenAPI document lists, provoked operation by operation
 * (docs/conformance.md#coverage): each check reads the document, picks the operations that
 * list its status, and sends each the request that must earn it — no key, a body over 1 MiB,
 * headers over 16 KiB, input the operation's schema refuses, an id no deployment holds, an
 * ended session, a key past its rate limit. Each answer must have that status, the error
 * envelope and, on the emulator, the code D6 gives it. Every request either is refused or
 * changes nothing, whatever the target answers. Injected faults (408, 500, 503) are in
 * status-faults.ts.
 */
import type { ApiResult } from '../../client/index.js';
import { templateMatcher } from '../../path-template.js';
import { SPEC_ENDPOINTS } from '../endpoints.js';
import { CheckSkip, TargetUnreachable, expect, expectStatus } from '../expect.js';
import { expectError, expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { bogusKey } from './auth.js';
import { concretePath, describe, harmlessCall, listing, refusedInput, runOwnedId, targetOperations, type DocumentOperation } from './document-operations.js';
import { guestSession, HOLDS_SESSION } from './sessions.js';
import { createKey, removal } from './support.js';

/** The status with the error envelope; on the emulator also the code D6 gives it. */
export function expectStatusCode(ctx: CheckContext, result: ApiResult<unknown>, status: number, code: string, rule: string): void {
  if (ctx.profile === 'emulator') expectErrorCode(result, status, code, `${rule} (D6: ${code})`);
  else expectError(result, status, rule);
}

/**
 * Runs `probe` for every operation at once; when some fail, the first failure is thrown once
 * every probe has ended, so no request of the check is still in flight when it is reported.
 */
export async function eachOperation(operations: readonly DocumentOperation[], probe: (operation: DocumentOperation) => Promise<void>): Promise<void> {
  const outcomes = await Promise.allSettled(operations.map(probe));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

const MISSING = 'missing';

/** A JSON body just over 1 MiB, made once: an array, so that a target that took it would refuse it anyway. */
let oversized: Uint8Array | undefined;
function oversizedBody(): Uint8Array {
  oversized ??= new TextEncoder().encode(`["${'a'.repeat(1024 * 1024)}"]`);
  return oversized;
}

/** Headers this long are over the 16 KiB every HTTP server of the document's kind accepts. */
const LONG_HEADER = 'a'.repeat(17 * 1024);

/** The most requests the rate-limit step sends to empty a fresh key's bucket. */
const MAX_DRAIN = 2_000;
/**
 * Requests in flight while the bucket is emptied: enough to outrun the refill of a far target
 * (at 150 ms a round trip, some three hundred a second); the first refusal stops them.
 */
const DRAIN_IN_FLIGHT = 50;
/** Requests sent just ahead of the operations' calls, to take the tokens the bucket refilled meanwhile. */
const SHIELDS = 10;
/** Times the operations not refused yet are sent again, each after the bucket is emptied once more. */
const RATE_LIMIT_ROUNDS = 8;

/**
 * A key whose bucket the rate-limit check may empty, not the run's. On the emulator, the key of
 * a tenant of its own on the free plan (D16: the smallest bucket, so the fewest requests empty
 * it), removed at the end; elsewhere a key of the run's tenant, revoked at the end.
 */
async function throwawayKey(ctx: CheckContext): Promise<string> {
  if (ctx.profile !== 'emulator') return (await createKey(ctx, 'statuses-429')).value;
  const made = await ctx.client.emulator.tenants.create({ name: ctx.name('rate-limit'), template: null, plan: 'free' });
  expectStatus(made, [200, 201], 'D11: POST /_emulator/tenants makes a tenant for the check');
  const { tenant, apiKey } = made.ok ? made.body.data : { tenant: { id: '' }, apiKey: '' };
  ctx.defer({ description: `tenant ${tenant.id} (rate limits)`, run: () => removal(ctx.client.emulator.tenants.remove(tenant.id)) });
  return apiKey;
}

export const statusChecks: Check[] = [
  {
    id: 'statuses.401',
    tags: ['statuses', 'auth'],
    description:
      'every operation the document says takes the API key is 401, in the error envelope, without one and with one no deployment issued (those the auth checks do not already send both)',
    spec: 'part 5.3, part 7 (401)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const keyed = listing(await targetOperations(ctx), 401).filter((operation) => operation.keyed);
      // auth.missing-key.* and auth.invalid-key.* send both to every endpoint of the spec: not again.
      const checkedByAuth = templateMatcher(keyed.map((operation) => ({ method: operation.method, path: operation.path, value: operation })));
      const reached = new Set(SPEC_ENDPOINTS.map((endpoint) => checkedByAuth(endpoint.method, endpoint.path.split('?')[0]!)));
      const operations = keyed.filter((operation) => !reached.has(operation));
      await eachOperation(operations, async (operation) => {
        const path = concretePath(operation, runOwnedId(ctx, MISSING));
        const none = await ctx.client.request(operation.method, path, { apiKey: null });
        expectStatusCode(ctx, none, 401, 'missing_api_key', `part 5.3: ${describe(operation)} without x-api-key is 401`);
        const bogus = await ctx.client.request(operation.method, path, { apiKey: bogusKey() });
        expectStatusCode(ctx, bogus, 401, 'invalid_api_key', `part 5.3: ${describe(operation)} with a key no deployment issued is 401`);
      });
      ctx.note(`${keyed.length - operations.length} of ${keyed.length} operations under the key are the auth checks'; ${operations.length} more refused both`);
    },
  },
  {
    id: 'statuses.400',
    tags: ['statuses', 'errors'],
    description: 'every operation the document says takes a body, a path id or a query answers 400 validation_error to one its schema refuses',
    spec: 'part 7 (400), D6',
    profile: 'spec',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 400).filter((operation) => operation.session !== 'delegated');
      const refusing = operations.flatMap((operation) => {
        const input = refusedInput(operation, runOwnedId(ctx, MISSING));
        return input === undefined ? [] : [{ operation, input }];
      });
      const token = refusing.some(({ operation }) => operation.session === 'user') ? (await guestSession(ctx)).token : undefined;
      await eachOperation(
        refusing.map(({ operation }) => operation),
        async (operation) => {
          const { input } = refusing.find((entry) => entry.operation === operation)!;
          const result = await ctx.client.request(operation.method, input.path, {
            ...(input.query === undefined ? {} : { query: input.query }),
            ...(input.body === undefined ? {} : { body: input.body }),
            ...(operation.session === 'user' && token !== undefined ? { bearer: token } : {}),
          });
          expectStatusCode(ctx, result, 400, 'validation_error', `part 7: ${describe(operation)} with ${input.what} is a bad request`);
        },
      );
      ctx.note(`${refusing.length} of ${operations.length} operations refused their bad input; the others take none to refuse`);
    },
  },
  {
    id: 'statuses.400-unheld-text',
    tags: ['statuses', 'errors'],
    description:
      'every operation statuses.400 has no input to refuse for answers 400 validation_error, naming the parameter, to a query that holds a NUL (text no store keeps: docs/postgres.md)',
    spec: 'D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 400).filter(
        (operation) => operation.session === 'delegated' || refusedInput(operation, runOwnedId(ctx, MISSING)) === undefined,
      );
      await eachOperation(operations, async (operation) => {
        // Refused before the key is looked at; one that took no input and writes goes without the key.
        const call = harmlessCall(operation, runOwnedId(ctx, MISSING));
        const result = await ctx.client.request(operation.method, call?.path ?? concretePath(operation, runOwnedId(ctx, MISSING)), {
          query: { ...call?.query, conformance: '\u0000' },
          ...(call?.body === undefined ? {} : { body: call.body }),
          ...(call === undefined ? { apiKey: null } : {}),
        });
        expectErrorCode(result, 400, 'validation_error', `docs/postgres.md: ${describe(operation)} refuses a NUL in the query`);
        const details = (result.body as { details: Array<{ path?: unknown; in?: unknown }> }).details;
        expect(
          details.some((detail) => detail.path === 'conformance' && detail.in === 'query'),
          'D6: details name the refused parameter and where it was',
          JSON.stringify(details).slice(0, 200),
          result,
        );
      });
    },
  },
  {
    id: 'statuses.413',
    tags: ['statuses', 'errors'],
    description: 'every operation that takes a body answers a body over 1 MiB with 413 payload_too_large',
    spec: 'part 7, D6',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 413);
      await eachOperation(operations, async (operation) => {
        const result = await ctx.client.request(operation.method, concretePath(operation, runOwnedId(ctx, MISSING)), {
          rawBody: oversizedBody(),
          headers: { 'content-type': 'application/json' },
        });
        expectStatusCode(ctx, result, 413, 'payload_too_large', `D6: ${describe(operation)} refuses a body over 1 MiB`);
      });
    },
  },
  {
    id: 'statuses.431',
    tags: ['statuses', 'errors'],
    description: 'every operation answers request headers over 16 KiB with 431 headers_too_large, in the error envelope',
    spec: 'part 7, D6',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 431);
      await eachOperation(operations, async (operation) => {
        const result = await ctx.client.request(operation.method, concretePath(operation, runOwnedId(ctx, MISSING)), {
          apiKey: null,
          headers: { 'x-conformance-padding': LONG_HEADER },
        });
        expectStatusCode(ctx, result, 431, 'headers_too_large', `D6: ${describe(operation)} refuses headers over 16 KiB`);
      });
    },
  },
  {
    id: 'statuses.404',
    tags: ['statuses', 'errors'],
    description: 'every operation that takes an id in its path answers 404 not_found for one no deployment holds',
    spec: 'part 7 (404), D3',
    profile: 'spec',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 404).filter(
        (operation) => operation.pathParameters.length > 0 && !operation.bodyRequired && operation.session !== 'delegated',
      );
      const token = operations.some((operation) => operation.session === 'user') ? (await guestSession(ctx)).token : undefined;
      await eachOperation(operations, async (operation) => {
        const result = await ctx.client.request(operation.method, concretePath(operation, runOwnedId(ctx, MISSING)), {
          ...(operation.session === 'user' && token !== undefined ? { bearer: token } : {}),
        });
        expectStatusCode(ctx, result, 404, 'not_found', `part 7: ${describe(operation)} of an id no deployment holds is not found`);
      });
      ctx.note(`${operations.length} operations answered 404`);
    },
  },
  {
    id: 'statuses.410',
    tags: ['statuses', 'guests'],
    description: "every operation that acts for a signed-in user answers 410 session_expired to an ended guest session's token",
    spec: 'part 3.3, part 7 (410), D4',
    profile: 'spec',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 410).filter((operation) => operation.session === 'user');
      if (operations.length === 0) throw new CheckSkip('the document lists 410 for no operation under a user session');
      const guest = await guestSession(ctx);
      await removal(ctx.client.guests.expire(guest.guestId));
      await eachOperation(operations, async (operation) => {
        const result = await ctx.client.request(operation.method, concretePath(operation, runOwnedId(ctx, MISSING)), { bearer: guest.token });
        expectStatusCode(ctx, result, 410, 'session_expired', `part 3.3: ${describe(operation)} with an ended session's token is gone`);
      });
    },
  },
  {
    id: 'statuses.429',
    tags: ['statuses', 'rate-limits'],
    description: 'a key past its rate limit is 429 rate_limited, with Retry-After, on every operation that takes the key',
    spec: 'part 7 (429), part 8, D16',
    profile: 'spec',
    creates: true,
    budget: MAX_DRAIN + RATE_LIMIT_ROUNDS * (DRAIN_IN_FLIGHT + SHIELDS + 60) + 20,
    run: async (ctx) => {
      const operations = listing(await targetOperations(ctx), 429).filter((operation) => operation.keyed);
      // Each is sent with a call that changes nothing should the limit let it through.
      let pending = operations.flatMap((operation) => {
        const call = harmlessCall(operation, runOwnedId(ctx, MISSING));
        return call === undefined ? [] : [{ operation, call }];
      });
      const unsafe = operations.filter((operation) => !pending.some((entry) => entry.operation === operation));
      const key = await throwawayKey(ctx);
      const first = await ctx.unthrottled.request('GET', '/tenant', { apiKey: key });
      if (ctx.profile === 'emulator' && first.headers.get('ratelimit-limit') === null)
        throw new CheckSkip('no RateLimit-Limit header: rate limits are off on this emulator (--rate-limit off)');
      let sent = 1;
      /** Sends with the key until one request is refused; false when MAX_DRAIN went through. */
      const drain = async (inFlight: number): Promise<boolean> => {
        let limited = false;
        const worker = async (): Promise<void> => {
          while (!limited && sent < MAX_DRAIN) {
            sent += 1;
            try {
              if ((await ctx.unthrottled.request('GET', '/tenant', { apiKey: key })).status === 429) limited = true;
            } catch (error) {
              if (!(error instanceof TargetUnreachable && error.timedOut)) throw error;
            }
          }
        };
        await Promise.all(Array.from({ length: inFlight }, worker));
        return limited;
      };
      for (let round = 0; round < RATE_LIMIT_ROUNDS && pending.length > 0; round += 1) {
        // Once emptied, the emulator's free bucket refills 20 a second: fewer in flight outrun it.
        if (!(await drain(round > 0 && ctx.profile === 'emulator' ? 16 : DRAIN_IN_FLIGHT)))
          throw new CheckSkip(`${sent} requests with a fresh key were not refused: the rate limit could not be reached`);
        // Sent in the same turn as the probes and ahead of them: the tokens refilled meanwhile
        // (the refusal took a round trip to arrive) go to these rather than to the first probes.
        const shields = Array.from({ length: SHIELDS }, () => ctx.unthrottled.request('GET', '/tenant', { apiKey: key }));
        sent += SHIELDS;
        // Turn about, so that no operation is always the first to arrive.
        const order = round % 2 === 0 ? pending : [...pending].reverse();
        const answers = await Promise.all(
          order.map(async (entry) => ({
            ...entry,
            result: await ctx.unthrottled.request(entry.operation.method, entry.call.path, {
              apiKey: key,
              ...(entry.call.query === undefined ? {} : { query: entry.call.query }),
              ...(entry.call.body === undefined ? {} : { body: entry.call.body }),
            }),
          })),
        );
        await Promise.all(shields);
        for (const { operation, result } of answers.filter((answer) => answer.result.status === 429)) {
          expectStatusCode(ctx, result, 429, 'rate_limited', `part 8: ${describe(operation)} beyond the rate limit is 429`);
          const retryAfter = result.headers.get('retry-after') ?? '';
          if (ctx.profile === 'emulator')
            expect(/^\d+$/.test(retryAfter), 'D16: a 429 says when to come back (Retry-After, seconds)', `Retry-After "${retryAfter}"`, result);
        }
        // Those the bucket's refill let through are sent again after it is emptied once more.
        pending = answers.filter((answer) => answer.result.status !== 429);
      }
      if (pending.length > 0)
        throw new CheckSkip(`the refill let ${pending.map(({ operation }) => operation.operationId).join(', ')} through ${RATE_LIMIT_ROUNDS} times`);
      ctx.note(`${operations.length - unsafe.length} operations refused a throttled key after ${sent} requests`);
      if (unsafe.length > 0) ctx.note(`not sent, as no call to them is safe should the limit let it through: ${unsafe.map(describe).join(', ')}`);
    },
  },
];
