/**
 * The areas of /v1 that createApp() loads on their first request (app.ts): that first request
 * is answered, counted, limited and logged once, as any other; requests that arrive together
 * load an area once; a load that fails answers as any failure does and is tried again; and the
 * OpenAPI document and app.routes hold every area whichever were asked for.
 */
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, loadEveryArea } from './app.js';
import { createRuntime } from './emulator.js';
import { createLogger } from './logger.js';
import type { Runtime } from './runtime.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from './services/seed.js';
import { ACME_KEY } from './test-support/harness.js';

const KEY = { 'x-api-key': ACME_KEY };

let runtimes: Runtime[] = [];
async function seeded(options: { rateLimit?: number } = {}): Promise<Runtime> {
  const rt = await createRuntime({ inMemory: true, ...options });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  runtimes.push(rt);
  return rt;
}
afterEach(async () => {
  for (const rt of runtimes) await rt.close();
  runtimes = [];
});

const routesUnder = (app: { routes: Array<{ method: string; path: string }> }, prefix: string): string[] =>
  app.routes.filter((route) => route.path.startsWith(prefix) && !route.path.endsWith('*')).map((route) => `${route.method} ${route.path}`);

describe('areas loaded on their first request', () => {
  it('are not in the app until asked for, then answer as if they had always been', async () => {
    const app = createApp(await seeded());
    expect(routesUnder(app, '/v1/apps')).toEqual([]);
    expect(routesUnder(app, '/v1/users')).not.toEqual([]); // built with the app
    const res = await app.request('/v1/apps?page_size=1', { headers: KEY });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect(routesUnder(app, '/v1/apps')).toContain('GET /v1/apps/:id');
    expect(routesUnder(app, '/v1/webhooks')).toEqual([]); // only the area asked for
  });

  it('count, limit and log that first request once', async () => {
    const lines: string[] = [];
    // One request a second, in bursts of two: a request that took two tokens would leave none.
    const app = createApp(await seeded({ rateLimit: 1 }), { logger: createLogger({ format: 'json', write: (line) => lines.push(line) }) });
    const first = await app.request('/v1/apps', { headers: { ...KEY, 'x-request-id': 'first-1' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('first-1');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual(['first-1']);
    // Analytics is loaded on its own first request too, and counts itself: two calls, not four.
    const analytics = await app.request('/v1/analytics?period=7d', { headers: KEY });
    expect(analytics.status).toBe(200);
    expect(((await analytics.json()) as { data: { totals: { apiCalls: number } } }).data.totals.apiCalls).toBe(2);
    expect(lines).toHaveLength(2);
  });

  it('answer a first request without a key as any other (401), and the area stays loaded', async () => {
    const app = createApp(await seeded());
    const res = await app.request('/v1/tenant');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('missing_api_key');
    expect((await app.request('/v1/tenant', { headers: KEY })).status).toBe(200);
  });

  it('load once for requests that arrive together', async () => {
    const app = createApp(await seeded());
    const answers = await Promise.all(Array.from({ length: 10 }, async () => app.request('/v1/webhooks', { headers: KEY })));
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    const once = createApp(runtimes[0]!);
    await once.request('/v1/webhooks', { headers: KEY });
    expect(routesUnder(app, '/v1/webhooks')).toContain('GET /v1/webhooks');
    expect(routesUnder(app, '/v1/webhooks')).toEqual(routesUnder(once, '/v1/webhooks'));
  });

  it('keep a path of one area from another: /users/me/wallet loaded after the users area', async () => {
    const app = createApp(await seeded());
    expect((await app.request('/v1/users?page_size=1', { headers: KEY })).status).toBe(200);
    const wallet = await app.request('/v1/users/me/wallet', { headers: KEY });
    expect(wallet.status).toBe(401);
    expect(((await wallet.json()) as { code: string }).code).toBe('missing_session');
  });

  it('are all in the OpenAPI document and in app.routes, whichever were asked for', async () => {
    const rt = await seeded();
    const fresh = createApp(rt);
    const used = createApp(rt);
    for (const path of ['/v1/billing/usage', '/v1/tenant', '/v1/apps']) await used.request(path, { headers: KEY });
    const [a, b] = await Promise.all([fresh, used].map(async (app) => (await app.request('/v1/openapi.json')).text()));
    expect(a).toBe(b);
    const paths = Object.keys((JSON.parse(a!) as { paths: Record<string, unknown> }).paths);
    for (const area of ['/v1/apps', '/v1/users/me/wallet', '/v1/mfa/status', '/v1/billing/usage', '/v1/custom-domains']) expect(paths).toContain(area);
    const listed = await loadEveryArea(createApp(rt));
    expect(routesUnder(listed, '/v1/auth/passkey')).not.toEqual([]);
    expect(routesUnder(listed, '/v1/mpc')).not.toEqual([]);
  });

  it('work mounted in another app through its fetch, or through route() once every area is loaded', async () => {
    const rt = await seeded();
    const byFetch = new Hono();
    byFetch.mount('/', createApp(rt).fetch);
    const byRoute = new Hono();
    byRoute.route('/', await loadEveryArea(createApp(rt)));
    for (const outer of [byFetch, byRoute]) {
      for (let i = 0; i < 2; i++) {
        const res = await outer.request('/v1/apps?page_size=1', { headers: KEY });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
      }
    }
  });

  it('answer a load that fails as any failure (500 in the envelope, with the request id, logged) and load again on the next request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = createApp(await seeded(), {
      logger: createLogger({ format: 'json', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    // A broken install: the area's module cannot be loaded.
    vi.doMock('./routes/billing.js', () => {
      throw new Error('Cannot find module routes/billing.js');
    });
    try {
      const failed = await app.request('/v1/billing/usage', { headers: { ...KEY, 'x-request-id': 'broken-1' } });
      expect(failed.status).toBe(500);
      expect(failed.headers.get('x-request-id')).toBe('broken-1');
      expect(failed.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(((await failed.json()) as { code: string }).code).toBe('internal_error');
      expect(lines.map((line) => [line['msg'], line['requestId'], line['status']])).toEqual([
        ['unhandled error', 'broken-1', undefined],
        [expect.any(String), 'broken-1', 500],
      ]);
      expect(lines[0]!['error']).toEqual(expect.stringContaining('Error'));
    } finally {
      vi.doUnmock('./routes/billing.js');
    }
    const again = await app.request('/v1/billing/usage', { headers: KEY });
    expect(again.status).toBe(200);
    expect(routesUnder(app, '/v1/billing')).toContain('GET /v1/billing/usage');
  });

  it('log requests for a logger that does not say whether it does', async () => {
    const lines: string[] = [];
    const app = createApp(await seeded(), { logger: { log: () => {}, request: (fields) => lines.push(fields.path) } });
    await app.request('/v1/apps', { headers: KEY });
    expect(lines).toEqual(['/v1/apps']);
  });
});
