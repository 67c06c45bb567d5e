/**
 * svc as a test harness, over a real emulator port and a real webhook receiver: a
 * tenant per worker made, reset alone and removed; the request journal with its filters and
 * redaction; waiting for an event and a delivery through the typed client; and the store
 * exported as a fixture that a fresh emulator seeded from it lists the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client } from '../src/index.js';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_TENANT_ID, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let svc: TestEmulator;
let receiver: TestReceiver;
let admin: Client;

beforeAll(async () => {
  svc = await startTestEmulator();
  receiver = await startReceiver();
  admin = createClient({ baseUrl: svc.baseUrl, apiKey: ACME_KEY });
});
afterAll(async () => {
  await svc.close();
  await receiver.close();
});

describe('a tenant per test worker', () => {
  it('makes a tenant from the fixture template with a fresh key that sees only its own records', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ name: 'worker 1' })).data;
    expect(made.apiKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(made.template).toBe(ACME_TENANT_ID);
    const worker = admin.emulator.clientFor(made.apiKey);
    expect(unwrap(await worker.tenant.get()).data).toMatchObject({ id: made.tenant.id, name: 'worker 1' });
    const acmeUsers = unwrap(await admin.users.list({ page_size: 100 })).total;
    const users = unwrap(await worker.users.list({ page_size: 100 }));
    expect(users.total).toBe(acmeUsers);
    const acmeIds = new Set(unwrap(await admin.users.list({ page_size: 100 })).data.map((user) => user.id));
    expect(users.data.some((user) => acmeIds.has(user.id))).toBe(false);
  });

  it('makes an empty tenant on a given plan, and refuses a template the fixture lacks', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ template: null, plan: 'free' })).data;
    expect(made.tenant.plan).toBe('free');
    expect(unwrap(await admin.emulator.clientFor(made.apiKey).users.list()).total).toBe(0);
    const refused = await admin.emulator.tenants.create({ template: 'Nobody Inc' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_error', details: [{ path: 'template' }] });
    const badPlan = await admin.emulator.request('POST', '/tenants', { body: { plan: 'platinum' } });
    expect(badPlan.body).toMatchObject({ code: 'validation_error', details: [{ path: 'plan' }] });
  });

  it('resets one tenant to its template without touching another, keeping its key', async () => {
    const a = unwrap(await admin.emulator.tenants.create({ template: 'Globex Identity' })).data;
    const b = unwrap(await admin.emulator.tenants.create({ template: 'Globex Identity' })).data;
    const [wa, wb] = [admin.emulator.clientFor(a.apiKey), admin.emulator.clientFor(b.apiKey)];
    const before = unwrap(await wa.users.list()).total;
    unwrap(await wa.users.create({ email: 'extra@worker.test' }));
    unwrap(await wb.users.create({ email: 'extra@worker.test' }));
    unwrap(await wa.apps.create({ name: 'Extra' }));
    const reset = unwrap(await admin.emulator.tenants.reset(a.tenant.id)).data;
    expect(reset.removed).toBeGreaterThan(before);
    expect(unwrap(await wa.users.list()).total).toBe(before);
    expect(unwrap(await wb.users.list()).total).toBe(before + 1);
    expect(unwrap(await wa.apps.list({ search: 'Extra' })).total).toBe(0);
  });

  it('removes a tenant: its key stops working, the others go on, and a second removal is 404', async () => {
    const made = unwrap(await admin.emulator.tenants.create()).data;
    const removed = unwrap(await admin.emulator.tenants.remove(made.tenant.id)).data;
    expect(removed).toMatchObject({ id: made.tenant.id, deleted: true });
    expect((await admin.emulator.clientFor(made.apiKey).users.list()).status).toBe(401);
    expect((await admin.users.list()).status).toBe(200);
    expect((await admin.emulator.tenants.remove(made.tenant.id)).status).toBe(404);
    const listed = unwrap(await admin.emulator.tenants.list()).data.map((tenant) => tenant.id);
    expect(listed).toContain(GLOBEX_TENANT_ID);
    expect(listed).not.toContain(made.tenant.id);
  });
});

describe('the request journal', () => {
  it('keeps the bodies of answers made from JSON text (a user, a page of users) as they were sent', async () => {
    const made = unwrap(await admin.emulator.tenants.create()).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    const page = unwrap(await worker.users.list());
    const user = unwrap(await worker.users.get(page.data[0]!.id));
    const [listed, got] = unwrap(await admin.emulator.requests({ tenant: made.tenant.id, method: 'get', path: '/v1/users*' })).data;
    expect(listed!.responseBody).toEqual(page);
    expect(got!.responseBody).toEqual(user);
  });

  it('records each request with tenant, status, request id and redacted bodies, and filters them', async () => {
    const made = unwrap(await admin.emulator.tenants.create()).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    const key = await worker.apiKeys.create({ name: 'ci' }, { headers: { 'x-request-id': 'journal-test-1' } });
    expect(key.status).toBe(201);
    await worker.users.get('usr_doesnotexist000000000');
    const all = unwrap(await admin.emulator.requests({ tenant: made.tenant.id })).data;
    expect(all.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /v1/api-keys 201',
      'GET /v1/users/usr_doesnotexist000000000 404',
    ]);
    const [created] = unwrap(await admin.emulator.requests({ requestId: 'journal-test-1' })).data;
    expect(created).toMatchObject({ tenantId: made.tenant.id, requestBody: { name: 'ci' }, responseBody: { data: { key: '[redacted]', name: 'ci' } } });
    expect(created!.durationMs).toBeGreaterThan(0);
    expect(JSON.stringify(all)).not.toContain(made.apiKey);
    expect(unwrap(await admin.emulator.requests({ tenant: made.tenant.id, status: '4xx' })).data).toHaveLength(1);
    expect(unwrap(await admin.emulator.requests({ tenant: made.tenant.id, path: '/v1/users/*', method: 'get' })).data).toHaveLength(1);
    expect(unwrap(await admin.emulator.requests({ tenant: made.tenant.id, after: created!.seq })).data).toHaveLength(1);
  });

  it('leaves out the control plane, and answers a bad filter 400 in the envelope', async () => {
    const entries = unwrap(await admin.emulator.requests({ limit: 10_000 })).data;
    expect(entries.some((entry) => entry.path.startsWith('/_emulator'))).toBe(false);
    const bad = await admin.emulator.request('GET', '/requests', { query: { status: 'teapot', limit: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error' });
    expect((bad.body as { details: Array<{ path: string }> }).details.map((d) => d.path).sort()).toEqual(['limit', 'status']);
  });
});

describe('the journal size', () => {
  it.each([
    [1, ['/v1/apps']],
    [0, []],
  ])('journalSize %i keeps at most that many requests', async (journalSize, paths) => {
    const small = await startTestEmulator({ journalSize });
    try {
      const client = createClient({ baseUrl: small.baseUrl, apiKey: ACME_KEY });
      await client.users.list();
      await client.apps.list();
      expect(unwrap(await client.emulator.requests()).data.map((entry) => entry.path)).toEqual(paths);
    } finally {
      await small.close();
    }
  });
});

describe('waiting for webhooks', () => {
  it('waits for an event whose data matches, and for its delivery to succeed', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ template: null })).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    unwrap(await worker.webhooks.create({ url: receiver.url, events: ['user.created'] }));
    const waiting = admin.emulator.waitForDelivery({ tenant: made.tenant.id, type: 'user.created', match: { email: 'wait@worker.test' }, timeoutMs: 5000 });
    unwrap(await worker.users.create({ email: 'other@worker.test' }));
    unwrap(await worker.users.create({ email: 'wait@worker.test' }));
    const { event, delivery } = await waiting;
    expect(event).toMatchObject({ tenantId: made.tenant.id, type: 'user.created', data: { email: 'wait@worker.test' } });
    expect(delivery).toMatchObject({ eventId: event.id, status: 'succeeded', tenantId: made.tenant.id });
    expect(receiver.received.some((request) => request.body.toString().includes(event.id))).toBe(true);
  });

  it('answers waitForEvent as waitForDelivery: `{ event }`, the event a delivery wait names beside its delivery', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ template: null })).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    unwrap(await worker.webhooks.create({ url: receiver.url, events: ['user.created'] }));
    unwrap(await worker.users.create({ email: 'alike@worker.test' }));
    const options = { tenant: made.tenant.id, type: 'user.created', match: { email: 'alike@worker.test' }, timeoutMs: 5000 };
    const waited = await admin.emulator.waitForEvent(options);
    expect(Object.keys(waited)).toEqual(['event']);
    expect(waited.event).toMatchObject({ tenantId: made.tenant.id, type: 'user.created', data: { email: 'alike@worker.test' } });
    const delivered = await admin.emulator.waitForDelivery(options);
    expect(Object.keys(delivered).sort()).toEqual(['delivery', 'event']);
    expect(delivered.event).toEqual(waited.event);
    expect(delivered.delivery).toMatchObject({ eventId: waited.event.id, status: 'succeeded' });
  });

  it('fails after the timeout, saying what it waited for', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ template: null })).data;
    await expect(admin.emulator.waitForEvent({ tenant: made.tenant.id, type: 'wallet.created', timeoutMs: 200 })).rejects.toThrow(
      /waited 200 ms for an event \(wallet.created, tenant ten_/,
    );
  });
});

describe('redelivery', () => {
  it('sends a delivered event again with the same event id, by id or since a time, and refuses a request naming neither', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ template: null })).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    unwrap(await worker.webhooks.create({ url: receiver.url, events: ['user.created'] }));
    unwrap(await worker.users.create({ email: 'again@worker.test' }));
    const { event } = await admin.emulator.waitForDelivery({ tenant: made.tenant.id, type: 'user.created' });
    const before = receiver.received.filter((request) => request.headers['x-service-event-id'] === event.id).length;
    const byId = unwrap(await admin.emulator.redeliver({ eventId: event.id })).data;
    expect(byId).toMatchObject({ events: 1, skipped: [], redelivered: [{ eventId: event.id, status: 'succeeded' }] });
    expect(byId.redelivered[0]!.attempts).toHaveLength(2);
    const since = unwrap(await admin.emulator.redeliver({ since: '1h', tenant: made.tenant.id })).data;
    expect(since.redelivered.map((delivery) => delivery.eventId)).toEqual([event.id]);
    const sent = receiver.received.filter((request) => request.headers['x-service-event-id'] === event.id);
    expect(sent.length).toBe(before + 2);
    expect(new Set(sent.map((request) => request.body.toString())).size).toBe(1);
    const neither = await admin.emulator.request('POST', '/redeliver', { body: { since: 'yesterday' } });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ code: 'validation_error', details: [{ path: 'since' }] });
    expect((await admin.emulator.redeliver({ eventId: 'evt_nope' })).status).toBe(404);
  });
});

describe('export', () => {
  it('writes a fixture that a fresh emulator seeded from it lists the same', async () => {
    const made = unwrap(await admin.emulator.tenants.create({ name: 'exported' })).data;
    const worker = admin.emulator.clientFor(made.apiKey);
    unwrap(await worker.users.create({ email: 'kept@export.test', name: 'Kept' }));
    unwrap(await worker.apps.create({ name: 'Kept app', allowedOrigins: ['http://localhost:9999'] }));
    const exported = unwrap(await admin.emulator.export()).data;
    expect(exported.replacedKeys).toEqual([]);
    const file = join(tempDataDir(), 'exported.json');
    writeFileSync(file, JSON.stringify(exported.fixture));
    const again = await startTestEmulator({ seedFile: file });
    try {
      const copy = createClient({ baseUrl: again.baseUrl, apiKey: made.apiKey });
      const listing = async (client: Client) => ({
        tenant: unwrap(await client.tenant.get()).data.name,
        users: unwrap(await client.users.list({ page_size: 100 })).data.map(({ email, name, trustLevel, createdAt }) => ({
          email,
          name,
          trustLevel,
          createdAt,
        })),
        apps: unwrap(await client.apps.list({ page_size: 100 }))
          .data.map(({ name, description, allowedOrigins }) => ({ name, description, allowedOrigins }))
          .sort((x, y) => x.name.localeCompare(y.name)),
      });
      expect(await listing(copy)).toEqual(await listing(worker));
      expect(await listing(copy.emulator.clientFor(ACME_KEY))).toEqual(await listing(admin));
      expect(unwrap(await copy.emulator.tenants.list()).data.map((t) => t.id)).toEqual(unwrap(await admin.emulator.tenants.list()).data.map((t) => t.id));
    } finally {
      await again.close();
    }
  });
});
