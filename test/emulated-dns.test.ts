/**
 * The emulated DNS of the control plane (docs/control-plane.md#emulated-dns) on a real emulator:
 * TXT records set, read, listed and removed through the typed client, bad input refused in the
 * error envelope, a custom domain verified through an emulated record, and through a real
 * loopback DNS server when the name has no emulated record. The records last across a restart
 * on the same data dir, a reset leaves them, and two emulators on one real PostgreSQL share them.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client } from '../src/index.js';
import { startDnsServer, type TestDnsServer } from '../src/test-support/dns-server.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../src/test-support/postgres.js';

const postgres = postgresAvailability();

/** Registers `domain` for the key's tenant and answers its verification record. */
async function register(svc: TestEmulator, domain: string, key = ACME_KEY): Promise<{ name: string; value: string }> {
  const made = await svc.request('POST', '/custom-domains', { key, body: { domain } });
  expect(made.status, made.text).toBe(201);
  return made.body.data.verification;
}

describe('emulated DNS TXT records beside a real loopback DNS server', () => {
  let dns: TestDnsServer;
  let svc: TestEmulator;
  let client: Client;
  beforeAll(async () => {
    dns = await startDnsServer();
    svc = await startTestEmulator({ dnsServer: dns.address });
    client = createClient({ baseUrl: svc.baseUrl, apiKey: ACME_KEY });
  });
  afterAll(async () => {
    await svc.close();
    await dns.close();
  });
  beforeEach(async () => {
    dns.txt.clear();
    for (const key of [ACME_KEY, GLOBEX_KEY]) await svc.request('DELETE', '/custom-domains', { key });
    for (const record of unwrap(await client.emulator.dns.txt.list()).data) unwrap(await client.emulator.dns.txt.remove(record.name));
  });

  it('sets, reads, lists, replaces and removes a record; names are case-insensitive and lose a trailing dot', async () => {
    const set = unwrap(await client.emulator.dns.txt.set('_svc-verify.Auth.Example.COM.', ['svc-verify=one', 'v=spf1 -all']));
    expect(set.data).toEqual({ name: '_svc-verify.auth.example.com', values: ['svc-verify=one', 'v=spf1 -all'], updatedAt: expect.any(String) });
    // updatedAt is emulator time, as the records' times are.
    expect(Math.abs(Date.parse(set.data.updatedAt) - svc.emulator.rt.clock.nowMs())).toBeLessThan(60_000);
    expect(unwrap(await client.emulator.dns.txt.get('_SVC-VERIFY.auth.example.com')).data.values).toEqual(['svc-verify=one', 'v=spf1 -all']);
    unwrap(await client.emulator.dns.txt.set('b.example.com', ['x']));
    unwrap(await client.emulator.dns.txt.set('_svc-verify.auth.example.com', ['svc-verify=two']));
    expect(unwrap(await client.emulator.dns.txt.list()).data.map((r) => [r.name, r.values])).toEqual([
      ['_svc-verify.auth.example.com', ['svc-verify=two']],
      ['b.example.com', ['x']],
    ]);
    expect(unwrap(await client.emulator.dns.txt.remove('_svc-verify.auth.example.com.')).data).toEqual({ name: '_svc-verify.auth.example.com', deleted: true });
    const gone = await client.emulator.dns.txt.get('_svc-verify.auth.example.com');
    expect([gone.status, (gone.body as { code?: string }).code]).toEqual([404, 'not_found']);
    const again = await client.emulator.dns.txt.remove('_svc-verify.auth.example.com');
    expect([again.status, (again.body as { code?: string }).code]).toEqual([404, 'not_found']);
    expect(unwrap(await client.emulator.dns.txt.list()).data.map((r) => r.name)).toEqual(['b.example.com']);
  });

  it.each([
    ['a name with a space', 'exa%20mple.com', { values: ['x'] }, 'name'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`, { values: ['x'] }, 'name'],
    ['a label that starts with a hyphen', '-bad.example.com', { values: ['x'] }, 'name'],
    ['a name over 253 characters', `${'abcdefghi.'.repeat(26)}com`, { values: ['x'] }, 'name'],
    ['no values', 'ok.example.com', { values: [] }, 'values'],
    ['17 values', 'ok.example.com', { values: Array.from({ length: 17 }, (_, i) => `v${i}`) }, 'values'],
    ['a value of 256 characters', 'ok.example.com', { values: ['v'.repeat(256)] }, 'values.0'],
    ['values that are not strings', 'ok.example.com', { values: [1] }, 'values.0'],
    ['no body', 'ok.example.com', undefined, ''],
  ])('refuses %s with 400 in the error envelope', async (_, name, body, path) => {
    const res = await svc.request('PUT', `/_emulator/dns/txt/${name}`, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('validation_error');
    if (path !== '') expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(unwrap(await client.emulator.dns.txt.list()).data).toEqual([]);
  });

  it('is behind the door: a change without the control header is refused, nothing stored', async () => {
    const res = await fetch(`${svc.origin}/_emulator/dns/txt/x.example.com`, {
      method: 'PUT',
      body: JSON.stringify({ values: ['x'] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(403);
    expect(unwrap(await client.emulator.dns.txt.list()).data).toEqual([]);
  });

  it('verifies a domain through its emulated record, asking no DNS server', async () => {
    const verification = await register(svc, 'emulated.example.com');
    unwrap(await client.emulator.dns.txt.set(verification.name, ['v=spf1 -all', verification.value]));
    const asked = dns.queries();
    const verified = await svc.request('POST', '/custom-domains/verify');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data).toMatchObject({ domain: 'emulated.example.com', status: 'verified' });
    expect(verified.body.data.verifiedAt).toBe(svc.emulator.rt.store.get('customDomains', verified.body.data.id)!.verifiedAt);
    expect(verified.body.data.verifiedAt).not.toBeNull();
    expect(dns.queries()).toBe(asked);
    const tenant = await svc.request('GET', '/tenant');
    expect(tenant.body.data.settings.webauthn.origins).toContain('https://emulated.example.com');
  });

  it('an emulated record stands for its whole name: a wrong value there fails, whatever the DNS server holds', async () => {
    const verification = await register(svc, 'shadowed.example.com');
    dns.txt.set(verification.name, [verification.value]);
    unwrap(await client.emulator.dns.txt.set(verification.name, ['svc-verify=stale']));
    const refused = await svc.request('POST', '/custom-domains/verify');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('dns_verification_failed');
    expect(refused.body.details[0]).toMatchObject({ found: ['svc-verify=stale'], source: 'emulated' });
    expect(refused.body.error).toContain('emulated TXT record');
    // Removed, the name goes to the DNS server again, which holds the right value.
    unwrap(await client.emulator.dns.txt.remove(verification.name));
    const asked = dns.queries();
    const verified = await svc.request('POST', '/custom-domains/verify');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.status).toBe('verified');
    expect(dns.queries()).toBeGreaterThan(asked);
  });

  it('a name with no emulated record goes to the DNS server, as before', async () => {
    const verification = await register(svc, 'resolved.example.com', GLOBEX_KEY);
    unwrap(await client.emulator.dns.txt.set('_svc-verify.other.example.com', [verification.value]));
    const missing = await svc.request('POST', '/custom-domains/verify', { key: GLOBEX_KEY });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0]).toMatchObject({ found: [], source: 'dns' });
    dns.txt.set(verification.name, [verification.value]);
    const verified = await svc.request('POST', '/custom-domains/verify', { key: GLOBEX_KEY });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.status).toBe('verified');
  });
});

describe('emulated DNS records on the data dir', () => {
  it('last across a restart in dns.json (0600); a reset and a snapshot restore leave them', async () => {
    const dataDir = tempDataDir();
    const first = await startTestEmulator({ dataDir });
    try {
      const client = createClient({ baseUrl: first.baseUrl, apiKey: ACME_KEY });
      unwrap(await client.emulator.dns.txt.set('_svc-verify.kept.example.com', ['svc-verify=kept']));
      unwrap(await client.emulator.reset());
      expect(unwrap(await client.emulator.dns.txt.list()).data.map((r) => r.name)).toEqual(['_svc-verify.kept.example.com']);
      // Only the owner reads the data dir's files (docs/testing-with-svc.md#secrets).
      expect(statSync(join(dataDir, 'dns.json')).mode & 0o777).toBe(0o600);
    } finally {
      await first.stop();
    }
    const second = await startTestEmulator({ dataDir });
    try {
      const client = createClient({ baseUrl: second.baseUrl, apiKey: ACME_KEY });
      expect(unwrap(await client.emulator.dns.txt.get('_svc-verify.kept.example.com')).data.values).toEqual(['svc-verify=kept']);
      // A snapshot holds no DNS record: its restore leaves the zone as it is, like the outside world it stands for.
      unwrap(await client.emulator.snapshots.save('before-dns-change'));
      unwrap(await client.emulator.dns.txt.set('_svc-verify.kept.example.com', ['svc-verify=later']));
      unwrap(await client.emulator.snapshots.restore('before-dns-change'));
      expect(unwrap(await client.emulator.dns.txt.list()).data.map((r) => [r.name, r.values])).toEqual([
        ['_svc-verify.kept.example.com', ['svc-verify=later']],
      ]);
    } finally {
      await second.close();
    }
  });
});

describe('a dns.json svc cannot read', () => {
  it('answers 503 with what to do, to the control plane and to a verification, until it is mended', async () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'dns.json'), '{"txt": [1, 2', { mode: 0o600 });
    const svc = await startTestEmulator({ dataDir });
    try {
      const listed = await svc.request('GET', '/_emulator/dns/txt');
      expect([listed.status, listed.body.code]).toEqual([503, 'store_unavailable']);
      expect(listed.body.error).toContain("dns.json does not hold svc's emulated DNS records; fix or delete it");
      await register(svc, 'damaged.example.com');
      const verify = await svc.request('POST', '/custom-domains/verify');
      expect([verify.status, verify.body.code]).toEqual([503, 'store_unavailable']);
      rmSync(join(dataDir, 'dns.json'));
      expect((await svc.request('GET', '/_emulator/dns/txt')).body).toEqual({ data: [] });
    } finally {
      await svc.close();
    }
  });
});

describe.skipIf(!postgres.available)('emulated DNS records on a PostgreSQL store two emulators share', () => {
  let server: TestPostgres;
  let one: TestEmulator;
  let two: TestEmulator;
  beforeAll(async () => {
    server = await startPostgres();
    const storeUrl = await server.database();
    one = await startTestEmulator({ storeUrl });
    two = await startTestEmulator({ storeUrl });
  }, 90_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await server?.stop();
  });

  it('a record set through one process verifies a domain through the other; removed through it, the first sees it gone', async () => {
    const a = createClient({ baseUrl: one.baseUrl, apiKey: ACME_KEY });
    const b = createClient({ baseUrl: two.baseUrl, apiKey: ACME_KEY });
    const verification = await register(one, 'shared.example.com');
    // Two names set at once through the two processes: both are kept.
    await Promise.all([
      a.emulator.dns.txt.set(verification.name, [verification.value]).then(unwrap),
      b.emulator.dns.txt.set('_other.shared.example.com', ['x']).then(unwrap),
    ]);
    const verified = await two.request('POST', '/custom-domains/verify');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.status).toBe('verified');
    expect(unwrap(await a.emulator.dns.txt.list()).data.map((r) => r.name)).toEqual(['_other.shared.example.com', verification.name]);
    unwrap(await b.emulator.dns.txt.remove(verification.name));
    expect((await a.emulator.dns.txt.get(verification.name)).status).toBe(404);
    unwrap(await a.emulator.reset());
    expect(unwrap(await b.emulator.dns.txt.list()).data.map((r) => r.name)).toEqual(['_other.shared.example.com']);
  }, 60_000);
});
