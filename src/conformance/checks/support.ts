/**
 * Records the checks create, each named with the run id and removed at the end of the run,
 * and the few lookups several areas share.
 */
import type { ApiResult } from '../../client/index.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { CREATED_SPEC, expectSuccess, SpecPage, stringField } from '../shapes.js';
import type { CheckContext } from '../types.js';

/**
 * A removal succeeded, or the record was already gone or ended (a check removed it itself);
 * `settled` lists more statuses that mean there is nothing left to remove.
 */
export async function removal(call: Promise<ApiResult<unknown>>, settled: readonly number[] = []): Promise<void> {
  const result = await call;
  if (!result.ok && ![404, 410, ...settled].includes(result.status))
    throw new Error(`${result.request.method} ${result.request.path} answered ${result.status}`);
}

/**
 * How many of the newest events a check reads from GET /_emulator/events to find its own:
 * checks running at once, and other tenants, add events between its action and its look.
 */
export const EVENTS_LOOKED_AT = 200;

/** An id of the right form that no deployment holds. */
export function missingId(ctx: CheckContext, prefix: string): string {
  return `${prefix}_conformance${ctx.runId}missing`;
}

/** Keeps a result in a thrown-away variable's place: creation must succeed before a check can go on. */
export function created(result: ApiResult<unknown>, rule: string, statuses: readonly number[] = CREATED_SPEC): Record<string, unknown> {
  return expectSuccess(result, statuses, rule);
}

export interface CreatedApp {
  id: string;
  name: string;
  result: ApiResult<unknown>;
}

/** Creates an app named with the run id (body per D15) and deletes it at the end. */
export async function createRunApp(ctx: CheckContext, label: string, body: Record<string, unknown> = {}): Promise<CreatedApp> {
  const name = ctx.name(label);
  const result = await ctx.client.request('POST', '/apps', { body: { name, ...body } });
  const data = created(result, 'create app (POST /apps) must succeed');
  const id = stringField(data, 'id', 'a created app has an id', result);
  ctx.defer({ description: `app ${id} (${name})`, run: () => removal(ctx.client.apps.delete(id)) });
  return { id, name, result };
}

export interface CreatedUser {
  id: string;
  email: string;
  result: ApiResult<unknown>;
}

/**
 * Creates a user whose e-mail carries the run id (body per D15). The spec has no way to
 * delete a user, so users stay; the plan and the report say so.
 */
export async function createUser(ctx: CheckContext, label: string, body: Record<string, unknown> = {}): Promise<CreatedUser> {
  const email = ctx.email(label);
  const result = await ctx.client.request('POST', '/users', { body: { email, name: `Conformance ${ctx.runId}`, ...body } });
  const data = created(result, 'create user (POST /users) must succeed');
  const id = stringField(data, 'id', 'a created user has an id', result);
  ctx.keep(`user ${id} (${email})`);
  return { id, email, result };
}

export interface CreatedKey {
  id: string;
  name: string;
  value: string;
  result: ApiResult<unknown>;
}

/**
 * Creates an API key and finds its value. The spec names no field for the value ("returned
 * only once, in the creation response"), so the value is the string of the answer that
 * authenticates; it is revoked at the end.
 */
export async function createKey(ctx: CheckContext, label: string): Promise<CreatedKey> {
  const name = ctx.name(label);
  const result = await ctx.client.request('POST', '/api-keys', { body: { name } });
  const data = created(result, 'create API key (POST /api-keys) must succeed');
  const id = stringField(data, 'id', 'a created API key has an id to revoke it by (DELETE /api-keys/:id)', result);
  ctx.defer({ description: `API key ${id}`, run: () => removal(ctx.client.apiKeys.revoke(id)) });
  // Revoking is all the spec offers: the key stays listed, revoked, under the run's name.
  ctx.keep(`API key ${id}, revoked`);
  const candidates = [data['key'], ...Object.values(data)].filter((v): v is string => typeof v === 'string' && v.length >= 16 && v !== id);
  for (const candidate of [...new Set(candidates)]) {
    const probe = await ctx.client.request('GET', '/tenant', { apiKey: candidate });
    if (probe.ok) return { id, name, value: candidate, result };
  }
  expect(false, 'part 4: the key value is returned in the creation response', 'no string of the creation answer works as x-api-key', result);
}

/** Retries `probe` until it says done or `ms` pass (for rules a deployment may apply with a short delay). */
export async function eventually<T>(ms: number, probe: () => Promise<{ done: boolean; value: T }>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const { done, value } = await probe();
    if (done || Date.now() >= until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The second tenant's client, or a skip. */
export function secondClient(ctx: CheckContext) {
  if (ctx.second === undefined) throw new CheckSkip('needs --second-api-key (a key of another tenant)');
  return ctx.second;
}

export { expectStatus };

/**
 * Every field `sent` holds has the same value in `read`, a record read back by a GET or found
 * in a listing (docs/conformance.md#every-effect-read-back); fails naming the first that differs.
 */
export function expectReadBack(read: unknown, sent: Record<string, unknown>, rule: string, result: ApiResult<unknown>): void {
  expect(typeof read === 'object' && read !== null, rule, 'the record is not there', result);
  for (const [field, value] of Object.entries(sent)) {
    const got = (read as Record<string, unknown>)[field];
    expect(JSON.stringify(got) === JSON.stringify(value), rule, `${field} reads ${JSON.stringify(got)}, sent ${JSON.stringify(value)}`, result);
  }
}

/**
 * The listing at `path` searched by a name the run made, and the item `id` in it: a read of
 * the run's own records, not a walk of the list, so it runs beside checks that create.
 */
export async function searchListing(ctx: CheckContext, path: '/apps' | '/users', search: string, id: string) {
  // The spec names the users listing's parameters but not the apps listing's: the spec profile reads that one's first page.
  const plain = path === '/apps' && ctx.profile === 'spec';
  const result = await ctx.client.request('GET', path, plain ? {} : { query: { search, page_size: 100 } });
  const page = expectShape(result, SpecPage, `part 2: GET ${path}?search= answers the paginated envelope`);
  const item = page.data.find((entry) => (entry as { id?: unknown } | null)?.id === id) as Record<string, unknown> | undefined;
  return { result, page, item };
}

/**
 * A tenant of the check's own, made through the control plane (D11) and removed at the end,
 * and a client with its key: for a check that sets what the run's tenant must keep (a bot
 * token, a short guestTtl) or acts on all of a tenant's records (a bulk cleanup).
 */
export async function ownTenant(ctx: CheckContext, label: string) {
  const made = await ctx.client.emulator.tenants.create({ name: ctx.name(label), template: null });
  expectStatus(made, [200, 201], 'D11: POST /_emulator/tenants makes a tenant for the check');
  const { tenant, apiKey } = made.ok ? made.body.data : { tenant: { id: '' }, apiKey: '' };
  ctx.defer({ description: `tenant ${tenant.id} (${label})`, run: () => removal(ctx.client.emulator.tenants.remove(tenant.id)) });
  return ctx.client.emulator.clientFor(apiKey);
}
