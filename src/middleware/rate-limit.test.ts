import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { TokenBuckets } from './rate-limit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TokenBuckets', () => {
  it('holds twice the rate, refills at the rate and says when the next token comes', () => {
    const buckets = new TokenBuckets();
    const taken = Array.from({ length: 4 }, () => buckets.take('k', 2, 0));
    expect(taken.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(buckets.take('k', 2, 0)).toEqual({ allowed: false, limit: 4, remaining: 0, resetSeconds: 1 });
    expect(buckets.take('k', 2, 499).allowed).toBe(false);
    expect(buckets.take('k', 2, 500).allowed).toBe(true);
    expect(buckets.take('other', 2, 500).remaining).toBe(3);
    // A rate below one per second waits more than a second for its token.
    const slow = new TokenBuckets();
    slow.take('k', 0.5, 0);
    expect(slow.take('k', 0.5, 0)).toMatchObject({ allowed: false, resetSeconds: 2 });
  });
});

describe('rate limits over HTTP with --rate-limit 2', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess({ rateLimit: 2 });
  });
  afterAll(() => svc.close());

  it('lets a burst of 4 through, answers the next 429 with Retry-After, and lets the next call through once waited', async () => {
    // Sequential calls until the first 429: a loaded machine refills a little meanwhile, so
    // allow the tokens that elapsed time earned, but never fewer than the burst.
    const started = performance.now();
    const burst = [];
    let over = await svc.request('GET', '/apps');
    while (over.status === 200 && burst.length < 50) {
      burst.push(over);
      over = await svc.request('GET', '/apps');
    }
    const earned = Math.ceil(((performance.now() - started) / 1000) * 2);
    expect(burst.length).toBeGreaterThanOrEqual(4);
    expect(burst.length).toBeLessThanOrEqual(4 + earned);
    expect(burst.every((r) => r.headers.get('ratelimit-limit') === '4')).toBe(true);
    expect(burst[0]!.headers.get('ratelimit-remaining')).toBe('3');
    expect(Number(burst.at(-1)!.headers.get('ratelimit-remaining'))).toBe(0);
    expect(Number(burst.at(-1)!.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);

    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    const retryAfter = over.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');

    // Health, the OpenAPI document and another tenant's key are not held back meanwhile.
    expect((await svc.request('GET', '/v1/healthz', { key: null })).status).toBe(200);
    const doc = await svc.request('GET', '/v1/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('ratelimit-limit')).toBeNull();
    expect((await svc.request('GET', '/apps', { key: GLOBEX_KEY })).status).toBe(200);

    await sleep(Number(retryAfter) * 1000);
    const next = await svc.request('GET', '/apps');
    expect(next.status).toBe(200);
  });

  it('puts the headers on error answers too, and never limits a call without a valid key', async () => {
    await sleep(2_000);
    const missing = await svc.request('GET', '/apps/app_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-limit')).toBe('4');
    for (let i = 0; i < 6; i++) {
      const unauthenticated = await svc.request('GET', '/apps', { key: null });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});

describe('rate limits by plan, and off', () => {
  it('uses the tenant plan’s rate (pro 200/s, bursts of 400) and follows a plan change at once', async () => {
    const svc = await startInProcess();
    try {
      expect((await svc.request('GET', '/tenant')).headers.get('ratelimit-limit')).toBe('400');
      const { store } = svc.emulator.rt;
      await store.write(() => store.update('tenants', ACME_TENANT_ID, { plan: 'free' }));
      const res = await svc.request('GET', '/tenant');
      expect(res.headers.get('ratelimit-limit')).toBe('40');
      expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(39);
    } finally {
      await svc.close();
    }
  });

  it('--rate-limit off lets any burst through', async () => {
    const svc = await startInProcess({ rateLimit: 'off' });
    try {
      const { store } = svc.emulator.rt;
      await store.write(() => store.update('tenants', ACME_TENANT_ID, { plan: 'free' }));
      const statuses = await Promise.all(Array.from({ length: 60 }, () => svc.request('GET', '/tenant').then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await svc.close();
    }
  });
});
