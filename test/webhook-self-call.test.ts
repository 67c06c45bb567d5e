/**
 * svc never calls itself (docs/webhook-targets.md#svc-never-calls-itself): every spelling of
 * svc's own address and port is refused when a webhook is registered or moved there, under
 * the default policy and under `any`; a name that turns into svc's address after registration
 * is refused at the attempt (test event, retries, the DLQ, a triggered event); and a receiver
 * on the same address at another port still gets its deliveries. After each row another
 * tenant's data is still there and no events were made but the row's own.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../src/test-support/dns-server.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/ports.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

const RULE = 'docs/webhook-targets.md#svc-never-calls-itself';

/** The spellings of svc's own address, each with the address the refusal names. */
const SPELLINGS: ReadonlyArray<[string, (port: number) => string, string]> = [
  ['127.0.0.1', (port) => `http://127.0.0.1:${port}/_emulator/reset`, '127.0.0.1'],
  ['localhost', (port) => `http://localhost:${port}/_emulator/reset`, '127.0.0.1'],
  ['[::1]', (port) => `http://[::1]:${port}/_emulator/reset`, '::1'],
  ['127.1', (port) => `http://127.1:${port}/_emulator/reset`, '127.0.0.1'],
  ['0.0.0.0', (port) => `http://0.0.0.0:${port}/_emulator/reset`, '0.0.0.0'],
  ['2130706433', (port) => `http://2130706433:${port}/_emulator/reset`, '127.0.0.1'],
  ['[::ffff:127.0.0.1]', (port) => `http://[::ffff:127.0.0.1]:${port}/_emulator/reset`, '::ffff:7f00:1'],
  ['[::]', (port) => `http://[::]:${port}/_emulator/reset`, '::'],
  ['a name the DNS server answers with 127.0.0.1', (port) => `http://self.hooks.test:${port}/_emulator/reset`, '127.0.0.1'],
  ['the dashboard', (port) => `http://127.0.0.1:${port}/_emulator/ui`, '127.0.0.1'],
  ['the API', (port) => `http://127.0.0.1:${port}/v1/users`, '127.0.0.1'],
  ['the trigger, which would loop', (port) => `http://127.0.0.1:${port}/_emulator/trigger`, '127.0.0.1'],
];

interface Envelope {
  status: number;
  body: { code: string; error: string; details: Array<Record<string, unknown>> };
}

function expectSelfCall(res: Envelope, url: string, address: string, port: number): void {
  expect(res.status, url).toBe(400);
  expect(res.body.code).toBe('validation_error');
  expect(res.body.error).toContain(`url ${url} is not an allowed webhook target: the URL reaches svc itself`);
  expect(res.body.error).toContain(`svc never calls itself, whatever the webhook target policy, see ${RULE}`);
  expect(res.body.details).toEqual([expect.objectContaining({ path: 'url', rule: RULE, address, port, listening: `127.0.0.1:${port}` })]);
}

/** A running svc with the DNS server and a user of Acme's that a reset would take away. */
interface Setup {
  svc: TestEmulator;
  port: number;
  acmeUser: string;
}

async function setUp(dns: TestDnsServer, webhookTargets?: string): Promise<Setup> {
  const svc = await startTestEmulator({ webhookDnsServer: dns.address, ...(webhookTargets === undefined ? {} : { webhookTargets }) });
  const user = await svc.request('POST', '/users', { key: ACME_KEY, body: { email: `self-call-${Date.now()}@example.com` } });
  expect(user.status).toBe(201);
  return { svc, port: svc.emulator.server.port, acmeUser: user.body.data.id };
}

async function eventCount(svc: TestEmulator): Promise<number> {
  const res = await svc.request('GET', '/_emulator/events?limit=1000', { key: null });
  expect(res.status).toBe(200);
  return res.body.data.length;
}

/**
 * Acme's user is still there, and the events are those made before plus `made`, `settleMs`
 * after a row that sent something: long enough for a loop to show (a webhook at
 * /_emulator/trigger made 50 events a second).
 */
async function expectUnchanged(setup: Setup, eventsBefore: number, made: number, settleMs = 0): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  expect((await setup.svc.request('GET', `/users/${setup.acmeUser}`, { key: ACME_KEY })).status).toBe(200);
  expect(await eventCount(setup.svc)).toBe(eventsBefore + made);
}

async function register(svc: TestEmulator, url: string, events: string[] = ['user.created'], key = GLOBEX_KEY): Promise<string> {
  const res = await svc.request('POST', '/webhooks', { key, body: { url, events } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

describe.each([
  ['the default policy', undefined],
  ['--webhook-targets any', 'any'],
])('under %s', (_name, webhookTargets) => {
  let dns: TestDnsServer;
  let receiver: TestReceiver;
  let setup: Setup;
  beforeAll(async () => {
    dns = await startDnsServer();
    dns.addresses.set('self.hooks.test', ['127.0.0.1']);
    receiver = await startReceiver();
    setup = await setUp(dns, webhookTargets);
  });
  afterAll(async () => {
    await setup.svc.close();
    await receiver.close();
    await dns.close();
  });

  it.each(SPELLINGS)('refuses to register %s at svc’s port', async (_spelling, urlAt, address) => {
    const before = await eventCount(setup.svc);
    const url = urlAt(setup.port);
    expectSelfCall(await setup.svc.request('POST', '/webhooks', { key: GLOBEX_KEY, body: { url, events: ['*'] } }), url, address, setup.port);
    await expectUnchanged(setup, before, 0);
  });

  it.each(SPELLINGS)('refuses to move a webhook to %s at svc’s port, and keeps its url', async (_spelling, urlAt, address) => {
    const id = await register(setup.svc, receiver.url);
    const url = urlAt(setup.port);
    const res = await setup.svc.request('PATCH', `/webhooks/${id}`, { key: GLOBEX_KEY, body: { url } });
    expectSelfCall(res, url, address, setup.port);
    const listed = await setup.svc.request('GET', '/webhooks', { key: GLOBEX_KEY });
    expect(listed.body.data.find((webhook: { id: string }) => webhook.id === id)).toMatchObject({ url: receiver.url });
    await setup.svc.request('DELETE', `/webhooks/${id}`, { key: GLOBEX_KEY });
  });

  it('delivers to a receiver on the same address at another port', async () => {
    const before = receiver.received.length;
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const id = await register(setup.svc, url);
      const test = await setup.svc.request('POST', `/webhooks/${id}/test`, { key: GLOBEX_KEY, body: {} });
      expect(test.body.data, url).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
      await setup.svc.request('DELETE', `/webhooks/${id}`, { key: GLOBEX_KEY });
    }
    expect(receiver.received).toHaveLength(before + 2);
  });

  it('refuses at every attempt a name that turns into svc’s address after registration', async () => {
    const { svc, port } = setup;
    const name = `late-${webhookTargets ?? 'local'}.hooks.test`;
    dns.addresses.set(name, ['10.0.0.9']);
    const id = await register(svc, `http://${name}:${port}/_emulator/reset`);
    dns.addresses.set(name, ['127.0.0.1']);
    const before = await eventCount(svc);
    const refused = `target refused: the URL reaches svc itself (${name} at 127.0.0.1:${port}); svc never calls itself, whatever the webhook target policy, see ${RULE}`;

    const test = await svc.request('POST', `/webhooks/${id}/test`, { key: GLOBEX_KEY, body: {} });
    expect(test.body.data).toMatchObject({ status: 'failed', attempts: [{ statusCode: null, error: refused }] });
    await expectUnchanged(setup, before, 1, 300);

    // Every retry on the schedule, into the DLQ, and a retry from the DLQ.
    const advanced = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '2d' } });
    expect(advanced.status).toBe(200);
    const dead = (await svc.request('GET', `/webhooks/${id}/deliveries`, { key: GLOBEX_KEY })).body.data[0];
    expect(dead.status).toBe('dead');
    expect(dead.attempts).toHaveLength(6);
    const retried = await svc.request('POST', `/_emulator/deliveries/${dead.id}/retry`, { key: null });
    expect(retried.status).toBe(200);
    const after = (await svc.request('GET', `/webhooks/${id}/deliveries`, { key: GLOBEX_KEY })).body.data[0];
    expect(after.attempts).toHaveLength(7);
    for (const attempt of after.attempts) expect(attempt).toMatchObject({ statusCode: null, error: refused });
    await expectUnchanged(setup, before, 1, 300);
    await svc.request('DELETE', `/webhooks/${id}`, { key: GLOBEX_KEY });
  });

  it('cannot start a loop through /_emulator/trigger', async () => {
    const { svc, port } = setup;
    const name = `loop-${webhookTargets ?? 'local'}.hooks.test`;
    dns.addresses.set(name, ['10.0.0.9']);
    // Acme is the tenant a trigger without tenantId is for, so each delivery would trigger the next.
    const id = await register(svc, `http://${name}:${port}/_emulator/trigger`, ['*'], ACME_KEY);
    dns.addresses.set(name, ['127.0.0.1']);
    const before = await eventCount(svc);
    const triggered = await svc.request('POST', '/_emulator/trigger', { key: null, body: { type: 'user.created' } });
    expect(triggered.status).toBe(201);
    expect(triggered.body.data.deliveries).toEqual([
      expect.objectContaining({
        webhookId: id,
        status: 'failed',
        attempts: [expect.objectContaining({ statusCode: null, error: expect.stringContaining('the URL reaches svc itself') })],
      }),
    ]);
    await expectUnchanged(setup, before, 1, 300);
    await svc.request('DELETE', `/webhooks/${id}`, { key: ACME_KEY });
  });
});

describe('a webhook stored before svc moved to its port', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is refused at the attempt once svc listens there', async () => {
    // Registered while nothing listened at `port`, with a delivery waiting for its retry.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/_emulator/reset`;
    const before = await startTestEmulator({ dataDir });
    const id = await register(before, url);
    const test = await before.request('POST', `/webhooks/${id}/test`, { key: GLOBEX_KEY, body: {} });
    expect(test.body.data).toMatchObject({ status: 'failed', attempts: [{ error: 'connection refused (ECONNREFUSED)' }] });
    await before.stop();

    const svc = await startTestEmulator({ dataDir, port });
    try {
      const user = await svc.request('POST', '/users', { key: ACME_KEY, body: { email: `moved-${Date.now()}@example.com` } });
      expect(user.status).toBe(201);
      const events = await eventCount(svc);
      const advanced = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '1m' } });
      expect(advanced.status).toBe(200);
      const delivery = (await svc.request('GET', `/webhooks/${id}/deliveries`, { key: GLOBEX_KEY })).body.data[0];
      expect(delivery.attempts).toHaveLength(2);
      expect(delivery.attempts[1]).toMatchObject({
        statusCode: null,
        error: expect.stringContaining(`target refused: the URL reaches svc itself (127.0.0.1:${port})`),
      });
      await expectUnchanged({ svc, port, acmeUser: user.body.data.id }, events, 0, 300);
    } finally {
      await svc.stop();
    }
  });
});
