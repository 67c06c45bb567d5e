import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import { sendAttempt, type TargetOptions } from './sender.js';

/** A receiver that closes every connection, so each attempt opens (and looks up) a new one. */
async function closingReceiver(): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => {
      hits += 1;
      res.writeHead(200, { connection: 'close' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function attempt(url: string, targets?: TargetOptions) {
  return sendAttempt({ url, secret: 'whsec_test', eventId: 'evt_1', body: '{}', timeoutMs: 5_000, ...(targets ? { targets } : {}) });
}

describe('sendAttempt under the webhook target policy', () => {
  let dns: TestDnsServer;
  let receiver: Awaited<ReturnType<typeof closingReceiver>>;
  beforeAll(async () => {
    dns = await startDnsServer();
    receiver = await closingReceiver();
  });
  afterAll(async () => {
    await dns.close();
    await receiver.close();
  });

  it('delivers to loopback by default', async () => {
    const outcome = await attempt(`http://127.0.0.1:${receiver.port}/hook`);
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null });
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://[fe80::1]:8080/', 'fe80::1 is a link-local address'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe is a link-local address'],
    ['http://0.0.0.0:9/', '0.0.0.0 is a reserved address'],
  ])('refuses %s by default without connecting, and without a status code', async (url, why) => {
    const outcome = await attempt(url);
    expect(outcome.ok).toBe(false);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toContain(`target refused: ${why}, and the webhook target policy "local" allows`);
    expect(outcome.durationMs).toBeLessThan(1_000);
  });

  it('refuses loopback under public, and sends nothing', async () => {
    const before = receiver.hits();
    const outcome = await attempt(`http://127.0.0.1:${receiver.port}/hook`, { webhookTargets: 'public' });
    expect(outcome.error).toBe('target refused: 127.0.0.1 is a loopback address, and the webhook target policy "public" allows public addresses');
    expect(receiver.hits()).toBe(before);
  });

  it('checks the address a name has at the attempt, not the one it had before', async () => {
    const targets = { webhookTargets: 'local', webhookDnsServer: dns.address };
    const url = `http://moving.hooks.test:${receiver.port}/hook`;
    dns.addresses.set('moving.hooks.test', ['127.0.0.1']);
    expect(await attempt(url, targets)).toMatchObject({ ok: true, statusCode: 200 });
    dns.addresses.set('moving.hooks.test', ['169.254.169.254']);
    const before = receiver.hits();
    const outcome = await attempt(url, targets);
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toContain('moving.hooks.test (169.254.169.254) is a link-local address');
    expect(receiver.hits()).toBe(before);
    dns.addresses.set('moving.hooks.test', ['127.0.0.1']);
    expect(await attempt(url, targets)).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('refuses a name when any of its addresses is refused', async () => {
    dns.addresses.set('mixed.hooks.test', ['127.0.0.1', 'fe80::2']);
    const outcome = await attempt(`http://mixed.hooks.test:${receiver.port}/hook`, { webhookDnsServer: dns.address });
    expect(outcome.error).toContain('mixed.hooks.test (fe80::2) is a link-local address');
  });

  it('lets a named host reach a private address under public, but not other names', async () => {
    dns.addresses.set('named.hooks.test', ['127.0.0.1']);
    dns.addresses.set('other.hooks.test', ['127.0.0.1']);
    const targets = { webhookTargets: 'public,named.hooks.test', webhookDnsServer: dns.address };
    expect(await attempt(`http://named.hooks.test:${receiver.port}/hook`, targets)).toMatchObject({ ok: true, statusCode: 200 });
    const other = await attempt(`http://other.hooks.test:${receiver.port}/hook`, targets);
    expect(other.error).toContain('other.hooks.test (127.0.0.1) is a loopback address, and the webhook target policy "public,named.hooks.test"');
  });

  it('says when a name has no address', async () => {
    const outcome = await attempt(`http://nowhere.hooks.test:${receiver.port}/hook`, { webhookDnsServer: dns.address });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'host not found (ENOTFOUND)' });
  });

  it('gives up on a DNS server that does not answer, within the look-up bound', async () => {
    const silent = await startDnsServer({ silent: true });
    try {
      const outcome = await attempt(`http://silent.hooks.test:${receiver.port}/hook`, { webhookDnsServer: silent.address });
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'the host name was not resolved in time (ETIMEOUT)' });
      expect(outcome.durationMs).toBeLessThan(3_000);
    } finally {
      await silent.close();
    }
  });

  it('resolves localhost to loopback whatever the DNS server says', async () => {
    const outcome = await attempt(`http://localhost:${receiver.port}/hook`, { webhookDnsServer: dns.address });
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
  });
});
