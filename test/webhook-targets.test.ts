/**
 * The webhook target policy through the API: what registration refuses under each
 * policy, and an attempt to a target the policy refuses, recorded and retried like any failure.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../src/test-support/dns-server.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

interface Refusal {
  status: number;
  body: { code: string; error: string; details: Array<Record<string, unknown>> };
}

function expectRefused(res: Refusal, policy: string, address: string, range: string): void {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('validation_error');
  expect(res.body.error).toContain(`is not an allowed webhook target`);
  expect(res.body.error).toContain(`the webhook target policy "${policy}"`);
  expect(res.body.error).toContain(`svc serve --webhook-targets (env SVC_WEBHOOK_TARGETS), e.g. --webhook-targets ${policy},${address}`);
  expect(res.body.details).toEqual([expect.objectContaining({ path: 'url', policy, address, range })]);
}

describe('the default policy (local)', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    svc = await startTestEmulator({ webhookDnsServer: dns.address });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
    await dns.close();
  });

  it('registers a loopback receiver and delivers to it', async () => {
    const created = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'] } });
    expect(created.status).toBe(201);
    const test = await svc.request('POST', `/webhooks/${created.body.data.id}/test`, { body: {} });
    expect(test.body.data).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    // The URL parser's other spellings of the same address are the same address.
    ['http://2852039166/latest/meta-data/', '169.254.169.254'],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
    ['http://[fe80::1]:8080/hook', 'fe80::1'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
  ])('refuses %s (link-local)', async (url, address) => {
    const res = await svc.request('POST', '/webhooks', { body: { url, events: ['*'] } });
    expectRefused(res, 'local', address, 'link-local');
  });

  it('refuses a host name that resolves to a link-local address', async () => {
    dns.addresses.set('metadata.hooks.test', ['10.0.0.7', '169.254.169.254']);
    const res = await svc.request('POST', '/webhooks', { body: { url: 'http://metadata.hooks.test/hook', events: ['*'] } });
    expectRefused(res, 'local', '169.254.169.254', 'link-local');
    expect(res.body.error).toContain('metadata.hooks.test (169.254.169.254) is a link-local address');
  });

  it('registers a name that does not resolve yet: each attempt checks it', async () => {
    const res = await svc.request('POST', '/webhooks', { body: { url: 'http://later.hooks.test/hook', events: ['*'] } });
    expect(res.status).toBe(201);
    await svc.request('DELETE', `/webhooks/${res.body.data.id}`);
  });

  it('refuses a PATCH to a link-local url and keeps the url it had', async () => {
    const created = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'] } });
    const res = await svc.request('PATCH', `/webhooks/${created.body.data.id}`, { body: { url: 'http://169.254.169.254/', enabled: false } });
    expectRefused(res, 'local', '169.254.169.254', 'link-local');
    const list = await svc.request('GET', '/webhooks');
    expect(list.body.data.find((w: { id: string }) => w.id === created.body.data.id)).toMatchObject({ url: receiver.url, enabled: true });
  });
});

describe('a shared host (public, with an allow list)', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    dns.addresses.set('hooks.internal.test', ['10.0.0.9']);
    dns.addresses.set('other.internal.test', ['10.0.0.9']);
    svc = await startTestEmulator({ webhookTargets: 'public,hooks.internal.test', webhookDnsServer: dns.address });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
    await dns.close();
  });

  it.each([
    ['a loopback receiver', () => receiver.url, '127.0.0.1', 'loopback'],
    ['a private address', () => 'http://10.1.2.3/hook', '10.1.2.3', 'private'],
    ['a unique-local address', () => 'http://[fd00::1]/hook', 'fd00::1', 'private'],
    ['the metadata address', () => 'http://169.254.169.254/', '169.254.169.254', 'link-local'],
  ])('refuses %s', async (_name, url, address, range) => {
    const res = await svc.request('POST', '/webhooks', { body: { url: url(), events: ['*'] } });
    expectRefused(res, 'public,hooks.internal.test', address, range);
  });

  it('refuses a name it does not list that resolves to a private address', async () => {
    const res = await svc.request('POST', '/webhooks', { body: { url: 'https://other.internal.test/hook', events: ['*'] } });
    expectRefused(res, 'public,hooks.internal.test', '10.0.0.9', 'private');
  });

  it('registers a public address and a host it names, wherever that host is', async () => {
    for (const url of ['http://93.184.215.14/hook', 'https://hooks.internal.test/hook']) {
      const res = await svc.request('POST', '/webhooks', { body: { url, events: ['user.created'] } });
      expect(res.status, url).toBe(201);
      await svc.request('DELETE', `/webhooks/${res.body.data.id}`);
    }
  });
});

describe('an allow list alone', () => {
  it('registers what it names and nothing else', async () => {
    const svc = await startTestEmulator({ webhookTargets: '127.0.0.1,10.0.0.0/8' });
    try {
      expect((await svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } })).status).toBe(201);
      expect((await svc.request('POST', '/webhooks', { body: { url: 'http://10.200.0.1/hook', events: ['*'] } })).status).toBe(201);
      expectRefused(
        await svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.2/hook', events: ['*'] } }),
        '127.0.0.1,10.0.0.0/8',
        '127.0.0.2',
        'loopback',
      );
      expectRefused(
        await svc.request('POST', '/webhooks', { body: { url: 'http://8.8.8.8/hook', events: ['*'] } }),
        '127.0.0.1,10.0.0.0/8',
        '8.8.8.8',
        'public',
      );
    } finally {
      await svc.close();
    }
  });

  it('is refused at start when it cannot be read', async () => {
    await expect(startTestEmulator({ webhookTargets: 'public,10.0.0.0/40' })).rejects.toThrow(
      '"10.0.0.0/40": the prefix length must be a whole number from 0 to 32',
    );
  });
});

describe('a target the policy refuses at the attempt', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is a failed attempt with the reason and no status code, retried on the schedule', async () => {
    // Registered under `any`; the deployment then restarts under the default policy.
    const open = await startTestEmulator({ dataDir, webhookTargets: 'any' });
    const created = await open.request('POST', '/webhooks', { body: { url: 'http://169.254.169.254/latest/meta-data/', events: ['user.created'] } });
    expect(created.status).toBe(201);
    await open.stop();

    const svc = await startTestEmulator({ dataDir });
    try {
      const user = await svc.request('POST', '/users', { body: { email: `targets-${Date.now()}@example.com` } });
      expect(user.status).toBe(201);
      const deliveries = async () => (await svc.request('GET', `/webhooks/${created.body.data.id}/deliveries`)).body.data[0];
      await expect.poll(async () => (await deliveries())?.status, { timeout: 10_000 }).toBe('failed');
      const first = await deliveries();
      expect(first.attempts).toEqual([
        expect.objectContaining({
          statusCode: null,
          error: 'target refused: 169.254.169.254 is a link-local address, and the webhook target policy "local" allows loopback, private and public addresses',
        }),
      ]);
      expect(Date.parse(first.nextAttemptAt) - Date.parse(first.attempts[0].at)).toBe(60_000);
      const advanced = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '1m' } });
      expect(advanced.status).toBe(200);
      const second = await deliveries();
      expect(second.status).toBe('failed');
      expect(second.attempts).toHaveLength(2);
      expect(second.attempts[1]).toMatchObject({ statusCode: null, error: first.attempts[0].error });
    } finally {
      await svc.stop();
    }
  });

  it('follows the policy the deployment was started with, not the default', async () => {
    const receiver = await startReceiver();
    const dir = tempDataDir();
    try {
      const local = await startTestEmulator({ dataDir: dir });
      const created = await local.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'] } });
      expect(created.status).toBe(201);
      await local.stop();
      // The same store under `public`: the loopback receiver registered before is refused at the attempt.
      const shared = await startTestEmulator({ dataDir: dir, webhookTargets: 'public' });
      try {
        const test = await shared.request('POST', `/webhooks/${created.body.data.id}/test`, { body: {} });
        expect(test.body.data.attempts).toEqual([
          expect.objectContaining({ statusCode: null, error: expect.stringContaining('the webhook target policy "public"') }),
        ]);
        expect(receiver.received).toHaveLength(0);
      } finally {
        await shared.stop();
      }
    } finally {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
