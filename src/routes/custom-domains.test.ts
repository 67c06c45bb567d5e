import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSocket, type Socket } from 'node:dgram';
import { GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../test-support/harness.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';

describe('custom domains over a real loopback DNS server', () => {
  let dns: TestDnsServer;
  let svc: TestEmulator;
  beforeAll(async () => {
    dns = await startDnsServer();
    svc = await startTestEmulator({ dnsServer: dns.address });
  });
  afterAll(async () => {
    await svc.close();
    await dns.close();
  });
  beforeEach(async () => {
    dns.txt.clear();
    for (const key of [undefined, GLOBEX_KEY]) {
      await svc.request('DELETE', '/custom-domains', key === undefined ? {} : { key });
    }
  });

  it.each([
    ['not a host', 'exa mple.com'],
    ['one label', 'localhost'],
    ['a leading hyphen', '-bad.example.com'],
    ['an IP address', '10.0.0.1'],
    ['a label over 63', `${'a'.repeat(64)}.example.com`],
    ['an underscore', 'my_app.example.com'],
  ])('refuses %s with 400', async (_, domain) => {
    const res = await svc.request('POST', '/custom-domains', { body: { domain } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details[0].path).toBe('domain');
  });

  it.each([
    [undefined, 404],
    ['{}', 404],
    ['[]', 400],
  ])('verify takes %j as its optional empty body (no domain yet: %i)', async (rawBody, status) => {
    const res = await svc.request('POST', '/custom-domains/verify', rawBody === undefined ? {} : { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(status);
  });

  it('answers the TXT record to create; the same domain again is 200, another is 409, another tenant’s is 409', async () => {
    const created = await svc.request('POST', '/custom-domains', { body: { domain: 'Auth.Example.COM.' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ domain: 'auth.example.com', status: 'pending', verifiedAt: null });
    expect(created.body.data.id).toMatch(/^dom_/);
    const { verification } = created.body.data;
    expect(verification.type).toBe('TXT');
    expect(verification.name).toBe('_svc-verify.auth.example.com');
    expect(verification.value).toMatch(/^svc-verify=[0-9A-Za-z]{32}$/);

    const again = await svc.request('POST', '/custom-domains', { body: { domain: 'auth.example.com' } });
    expect(again.status).toBe(200);
    expect(again.body.data.verification.value).toBe(verification.value);
    expect((await svc.request('POST', '/custom-domains', { body: { domain: 'other.example.com' } })).status).toBe(409);
    const taken = await svc.request('POST', '/custom-domains', { key: GLOBEX_KEY, body: { domain: 'auth.example.com' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('conflict');
  });

  it('verifies a domain whose TXT record the DNS server serves, emits domain.verified and allows the origin', async () => {
    const created = await svc.request('POST', '/custom-domains', { body: { domain: 'login.acme.test' } });
    const { name, value } = created.body.data.verification;
    dns.txt.set(name, ['v=spf1 -all', value]);
    const asked = dns.queries();
    const verified = await svc.request('POST', '/custom-domains/verify');
    expect(verified.status).toBe(200);
    expect(dns.queries()).toBeGreaterThan(asked);
    expect(verified.body.data.status).toBe('verified');
    expect(Date.parse(verified.body.data.verifiedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.createdAt));
    expect(Date.parse(verified.body.data.verifiedAt)).toBeLessThanOrEqual(svc.emulator.rt.clock.nowMs());

    const tenant = await svc.request('GET', '/tenant');
    expect(tenant.body.data.settings.webauthn.origins).toContain('https://login.acme.test');
    const events = [...svc.emulator.rt.store.all('events')].filter((e) => e.type === 'domain.verified');
    expect(events.at(-1)?.data).toMatchObject({ domain: 'login.acme.test', domainId: created.body.data.id });

    const removed = await svc.request('DELETE', '/custom-domains');
    expect(removed.body.data).toEqual({ domain: 'login.acme.test', deleted: true });
    const after = await svc.request('GET', '/tenant');
    expect(after.body.data.settings.webauthn.origins).not.toContain('https://login.acme.test');
    expect((await svc.request('DELETE', '/custom-domains')).status).toBe(404);
  });

  it.each([
    ['no record at all', undefined, []],
    ['a wrong value', ['svc-verify=not-the-token'], ['svc-verify=not-the-token']],
  ])('fails with %s, listing what was found in details', async (_, served, found) => {
    const created = await svc.request('POST', '/custom-domains', { body: { domain: 'id.acme.test' } });
    const { name, value } = created.body.data.verification;
    if (served) dns.txt.set(name, served);
    const res = await svc.request('POST', '/custom-domains/verify');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('dns_verification_failed');
    expect(res.body.details[0]).toMatchObject({ path: name, expected: value, found });
    expect((await svc.request('POST', '/custom-domains', { body: { domain: 'id.acme.test' } })).body.data.status).toBe('pending');
  });

  it('answers 404 to verify when no domain is registered', async () => {
    const res = await svc.request('POST', '/custom-domains/verify');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('custom domains with a resolver that does not answer', () => {
  let silent: TestDnsServer;
  let closedPort: Socket;
  beforeAll(async () => {
    silent = await startDnsServer({ silent: true });
    closedPort = createSocket('udp4');
    await new Promise<void>((resolve) => closedPort.bind(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await silent.close();
  });

  it('fails fast with 503 dns_unavailable when the server stays silent', async () => {
    const svc = await startTestEmulator({ dnsServer: silent.address });
    try {
      await svc.request('POST', '/custom-domains', { body: { domain: 'slow.acme.test' } });
      const started = performance.now();
      const res = await svc.request('POST', '/custom-domains/verify');
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('dns_unavailable');
      expect(res.body.error).toContain(silent.address);
      expect(silent.queries()).toBeGreaterThan(0);
    } finally {
      await svc.close();
    }
  });

  it('fails fast with 503 dns_unavailable when nothing listens on the port', async () => {
    const port = closedPort.address().port;
    await new Promise<void>((resolve) => closedPort.close(() => resolve()));
    const svc = await startTestEmulator({ dnsServer: `127.0.0.1:${port}` });
    try {
      await svc.request('POST', '/custom-domains', { body: { domain: 'gone.acme.test' } });
      const started = performance.now();
      const res = await svc.request('POST', '/custom-domains/verify');
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('dns_unavailable');
    } finally {
      await svc.close();
    }
  });
});
