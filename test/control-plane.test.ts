/** The control plane of D11 over real HTTP: reset, seed, trigger, faults, the event log and the DLQ. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_TENANT_ID, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { emulatorWithReceiver } from '../src/test-support/emulator-with-receiver.js';

const OTHER_KEY = 'sk_test_controlPlaneSeedKey0000000000001';

const seedDocument = (email = 'seeded@example.com') => ({
  tenants: [{ name: 'Seeded Co', plan: 'free', apiKeys: [{ name: 'ci', key: OTHER_KEY }], users: [{ email, trustLevel: 'basic' }] }],
});

describe('control plane: reset and seed', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  it('seeds a fixture document whose key then works, and refuses it a second time with 409', async () => {
    const seeded = await svc.request('POST', '/_emulator/seed', { body: seedDocument() });
    expect(seeded.status).toBe(201);
    expect(seeded.body.data.tenants).toEqual([expect.objectContaining({ name: 'Seeded Co', plan: 'free' })]);
    const users = await svc.request('GET', '/users', { key: OTHER_KEY });
    expect(users.status).toBe(200);
    expect(users.body.data.map((u: { email: string }) => u.email)).toEqual(['seeded@example.com']);
    const again = await svc.request('POST', '/_emulator/seed', { body: seedDocument('other@example.com') });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it.each([
    { name: 'no tenants', body: { tenants: [] }, path: 'tenants' },
    { name: 'a malformed key', body: { tenants: [{ name: 'X', apiKeys: [{ name: 'k', key: 'nope' }] }] }, path: 'tenants.0.apiKeys.0.key' },
    {
      name: 'a non-guest user without email',
      body: { tenants: [{ name: 'X', apiKeys: [{ name: 'k', key: OTHER_KEY }], users: [{ email: null, trustLevel: 'basic' }] }] },
      path: 'tenants.0.users.0.email',
    },
  ])('refuses a fixture with $name: 400 naming the field', async ({ body, path }) => {
    const answer = await svc.request('POST', '/_emulator/seed', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_error');
    expect(answer.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses a body that is not JSON with invalid_json', async () => {
    const answer = await svc.request('POST', '/_emulator/seed', { rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_json');
  });

  it('resets to the fixture: made records vanish, fixture keys work, and it survives a restart', async () => {
    const made = await svc.request('POST', '/users', { body: { email: 'before-reset@example.com' } });
    expect(made.status).toBe(201);
    const reset = await svc.request('POST', '/_emulator/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.data.tenants.map((t: { id: string }) => t.id)).toEqual([ACME_TENANT_ID, GLOBEX_TENANT_ID]);
    expect((await svc.request('GET', `/users/${made.body.data.id}`)).status).toBe(404);
    expect((await svc.request('GET', '/users', { key: OTHER_KEY })).status).toBe(401);
    const total = (await svc.request('GET', '/users')).body.total as number;
    expect(total).toBeGreaterThan(0);

    await svc.stop();
    const again = await startTestEmulator({ dataDir: svc.dataDir });
    try {
      expect((await again.request('GET', `/users/${made.body.data.id}`)).status).toBe(404);
      expect((await again.request('GET', '/users')).body.total).toBe(total);
    } finally {
      await again.stop();
    }
    svc = await startTestEmulator({ dataDir: svc.dataDir });
  });
});

describe('control plane: trigger, event log and DLQ', () => {
  // The emulator's clock starts at 2026-11-21T10:00Z; the receiver takes every delivery until told otherwise.
  const ctx = emulatorWithReceiver(() => 200);

  it('triggers a sample event of any type, delivered to the subscribed webhook and logged', async () => {
    await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['tx.completed'] } });
    const triggered = await ctx.svc.request('POST', '/_emulator/trigger', { body: { type: 'tx.completed' } });
    expect(triggered.status).toBe(201);
    expect(triggered.body.data.event).toMatchObject({ type: 'tx.completed', tenantId: ACME_TENANT_ID });
    expect(triggered.body.data.deliveries).toEqual([expect.objectContaining({ status: 'succeeded', eventType: 'tx.completed' })]);
    const [request] = await ctx.receiver.waitFor(1);
    expect(JSON.parse(request!.body.toString())).toMatchObject({ id: triggered.body.data.event.id, type: 'tx.completed', data: { status: 'completed' } });

    const log = await ctx.svc.request('GET', '/_emulator/events?type=tx.completed');
    expect(log.body.data[0].id).toBe(triggered.body.data.event.id);
    const other = await ctx.svc.request('GET', '/_emulator/events?type=mfa.enabled');
    expect(other.body.data).toEqual([]);
  });

  it("triggers for another tenant with its own data, reaching none of Acme's webhooks", async () => {
    const before = ctx.receiver.received.length;
    const triggered = await ctx.svc.request('POST', '/_emulator/trigger', {
      body: { type: 'tx.completed', tenantId: GLOBEX_TENANT_ID, data: { transactionId: 'tx_mine' } },
    });
    expect(triggered.status).toBe(201);
    expect(triggered.body.data.event).toMatchObject({ tenantId: GLOBEX_TENANT_ID, data: { transactionId: 'tx_mine' } });
    expect(triggered.body.data.deliveries).toEqual([]);
    expect(ctx.receiver.received.length).toBe(before);
  });

  it.each([
    { body: { type: 'nope.happened' }, status: 400, code: 'validation_error' },
    { body: {}, status: 400, code: 'validation_error' },
    { body: { type: 'user.created', tenantId: 'ten_doesNotExist000000000' }, status: 404, code: 'not_found' },
  ])('refuses trigger $body with $status', async ({ body, status, code }) => {
    const answer = await ctx.svc.request('POST', '/_emulator/trigger', { body });
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });

  it('retries the whole DLQ at once', async () => {
    ctx.receiver.respond = () => 500;
    const hook = await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['mfa.enabled'] } });
    await ctx.svc.request('POST', '/_emulator/trigger', { body: { type: 'mfa.enabled' } });
    await ctx.svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    const dlq = await ctx.svc.request('GET', '/_emulator/dlq');
    expect(dlq.body.data.filter((d: { webhookId: string }) => d.webhookId === hook.body.data.id)).toHaveLength(1);
    ctx.receiver.respond = () => 200;
    const retried = await ctx.svc.request('POST', '/_emulator/dlq/retry');
    expect(retried.status).toBe(200);
    expect(retried.body.data.map((d: { status: string }) => d.status)).toEqual(['succeeded']);
    expect((await ctx.svc.request('GET', '/_emulator/dlq')).body.data).toEqual([]);
  });
});

describe('control plane: fault injection', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  it('answers the status for exactly `count` matching requests, then behaves again', async () => {
    const added = await svc.request('POST', '/_emulator/faults', { body: { method: 'get', path: '/users', status: 503, count: 2 } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ method: 'GET', path: '/users', status: 503, count: 2, remaining: 2 });
    expect((await svc.request('POST', '/users', { body: { email: 'fault-post@example.com' } })).status).toBe(201);
    const first = await svc.request('GET', '/users');
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 'store_unavailable', details: [] });
    expect(first.body.error).toContain('Injected fault');
    expect(first.headers.get('x-svc-fault')).toBe(added.body.data.id);
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([expect.objectContaining({ remaining: 1 })]);
    expect((await svc.request('GET', '/users', { key: null })).status).toBe(503);
    expect((await svc.request('GET', '/users')).status).toBe(200);
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([]);
  });

  it.each([
    { pattern: '/users/:id', path: '/users/usr_x', hits: true },
    { pattern: '/v1/users/{id}', path: '/users/usr_x', hits: true },
    { pattern: '/users/:id', path: '/users', hits: false },
    { pattern: '/webhooks/*', path: '/webhooks/whk_x/deliveries', hits: true },
    { pattern: '/webhooks/*', path: '/webhooks', hits: true },
    { pattern: '/apps', path: '/apps/app_x', hits: false },
  ])('path $pattern hits $path: $hits', async ({ pattern, path, hits }) => {
    await svc.request('POST', '/_emulator/faults', { body: { path: pattern, status: 502, count: 1 } });
    const answer = await svc.request('GET', path);
    expect(answer.status === 502).toBe(hits);
    if (hits) expect(answer.body.code).toBe('internal_error');
    await svc.request('DELETE', '/_emulator/faults');
  });

  it('delays a request by `delay` and then answers it as usual', async () => {
    await svc.request('POST', '/_emulator/faults', { body: { path: '/tenant', delay: '400ms', count: 1 } });
    const started = performance.now();
    const answer = await svc.request('GET', '/tenant');
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-svc-fault')).toMatch(/^flt_/);
  });

  it('clears every fault with DELETE', async () => {
    await svc.request('POST', '/_emulator/faults', { body: { path: '/apps', count: 5 } });
    await svc.request('POST', '/_emulator/faults', { body: { path: '/users', count: 5 } });
    const cleared = await svc.request('DELETE', '/_emulator/faults');
    expect(cleared.body.data).toEqual({ cleared: 2 });
    expect((await svc.request('GET', '/apps')).status).toBe(200);
  });

  it.each([
    { body: { path: '/users' }, field: 'count' },
    { body: { path: 'users', count: 1 }, field: 'path' },
    { body: { path: '/users', count: 0 }, field: 'count' },
    { body: { path: '/users', count: 1, status: 302 }, field: 'status' },
    { body: { path: '/users', count: 1, status: 418 }, field: 'status' },
    { body: { path: '/users', count: 1, delay: 'soon' }, field: 'delay' },
    { body: { path: '/users', count: 1, delay: '11m' }, field: 'delay' },
    { body: { path: '/users', count: 1, method: 'G E T' }, field: 'method' },
  ])('refuses a fault whose $field is wrong', async ({ body, field }) => {
    const answer = await svc.request('POST', '/_emulator/faults', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('never touches the control plane itself', async () => {
    await svc.request('POST', '/_emulator/faults', { body: { path: '/*', status: 500, count: 3 } });
    expect((await svc.request('GET', '/_emulator/health')).status).toBe(200);
    expect((await svc.request('GET', '/healthz')).status).toBe(200);
    expect((await svc.request('GET', '/apps', { key: ACME_KEY })).status).toBe(500);
    await svc.request('DELETE', '/_emulator/faults');
  });
});
