/**
 * Secrets (DESIGN D3, D4, D8, D13): API keys, session and delegated-session tokens are kept only
 * as hashes, compared in constant time; webhook secrets, TOTP secrets and key shares only sealed,
 * so none is in the data dir's files. No secret (bot tokens included) is in a listing, on the
 * dashboard, or in the server's log; every answer that carries one says `cache-control: no-store`.
 * Webhook targets are http(s) only.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, type ApiResponse, type TestEmulator } from '../src/test-support/harness.js';
import { ensureBuilt, startServeProcess } from '../src/test-support/serve-process.js';
import { asUser, claimWallet, signIn } from '../src/test-support/signed-in.js';
import { SEAL_KEY_FILE } from '../src/crypto/seal.js';

const compared = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual: typeof real.timingSafeEqual = (a, b) => {
    compared.count += 1;
    return real.timingSafeEqual(a, b);
  };
  return { ...real, timingSafeEqual, default: { ...real, timingSafeEqual } };
});

const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'default.json'), 'utf8')) as {
  tenants: Array<{ settings: { telegram: { botToken: string } } }>;
};

/** Every file of the data dir but the seal key, as text. */
function dataDirText(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name !== SEAL_KEY_FILE)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

describe('secrets at rest, in listings and in answers', () => {
  let svc: TestEmulator;
  const secrets = new Map<string, string>();
  const carriers: Array<[string, ApiResponse]> = [];
  const keep = (label: string, res: ApiResponse, value: string): void => {
    expect(typeof value, `${label}: ${res.text}`).toBe('string');
    secrets.set(label, value);
    carriers.push([label, res]);
  };

  beforeAll(async () => {
    svc = await startTestEmulator();
    secrets.set('fixture key Acme', ACME_KEY);
    secrets.set('fixture key Globex', GLOBEX_KEY);
    FIXTURE.tenants.forEach((tenant, i) => secrets.set(`fixture bot token ${i}`, tenant.settings.telegram.botToken));

    const created = await svc.request('POST', '/api-keys', { body: { name: 'secret test' } });
    keep('new API key', created, created.body.data.key);
    const hook = await svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['user.created'] } });
    keep('webhook secret', hook, hook.body.data.secret);
    const rotated = await svc.request('PATCH', `/webhooks/${hook.body.data.id}`, { body: { rotateSecret: true } });
    keep('rotated webhook secret', rotated, rotated.body.data.secret);
    const botToken = '7000000009:AAnewTelegramBotTokenForTheSecretTest';
    expect((await svc.request('PATCH', '/tenant', { body: { settings: { telegram: { botUsername: 'acme_bot', botToken } } } })).status).toBe(200);
    secrets.set('new bot token', botToken);

    const guest = await svc.request('POST', '/guests', { body: {} });
    keep('guest session token', guest, guest.body.data.session.token);
    const converted = await svc.request('POST', `/guests/${guest.body.data.id}/convert`, { body: { email: 'converted.secret@example.com' } });
    keep('converted session token', converted, converted.body.data.session.token);

    const who = await signIn(svc);
    secrets.set('user session token', who.headers['authorization']!.slice('Bearer '.length));
    const call = asUser(svc, who);
    const wallet = await claimWallet(svc, who);
    secrets.set('device share', wallet.deviceShare);
    secrets.set('recovery share', wallet.recoveryShare);
    const retrieved = await call('GET', `/mpc/shares/${wallet.id}`);
    carriers.push(['retrieved key share', retrieved]);
    const delegated = await call('POST', '/delegated-sessions', { walletId: wallet.id, permissions: { templates: ['*'], choices: ['*'] }, expiresIn: '1h' });
    keep('delegated session token', delegated, delegated.body.data.token);
    const setup = await call('POST', '/mfa/setup', {});
    keep('TOTP secret', setup, setup.body.data.secret);
  });
  afterAll(() => svc.close());

  it('answers every secret with cache-control: no-store', () => {
    for (const [label, res] of carriers) {
      expect(res.status, `${label}: ${res.text}`).toBeLessThan(300);
      expect(res.headers.get('cache-control'), label).toBe('no-store');
    }
  });

  it('keeps no key, token, share or signing secret in plain text in the journal or, after a stop, in db.json', async () => {
    // Telegram bot tokens are the exception: the tenant record keeps them as the fixture gives
    // them (the HMAC check needs the token itself); they are write-only on the API and never logged.
    const atRest = [...secrets].filter(([label]) => !label.includes('bot token'));
    const check = (text: string): void => {
      for (const [label, value] of atRest) expect(text.includes(value), `${label} in the data dir`).toBe(false);
    };
    check(dataDirText(svc.dataDir));
    await svc.stop();
    expect(readdirSync(svc.dataDir)).toContain('db.json');
    check(dataDirText(svc.dataDir));
    svc = await startTestEmulator({ dataDir: svc.dataDir });
  });

  it('shows no secret in any listing, the event log or the dashboard', async () => {
    const pages = [
      '/api-keys',
      '/webhooks',
      '/tenant',
      '/users?page_size=100',
      '/apps',
      '/_emulator/events?limit=1000',
      '/_emulator/dlq',
      '/_emulator/ui',
      `/_emulator/ui/tenants/${ACME_TENANT_ID}`,
      '/_emulator/ui/webhooks',
      '/_emulator/ui/events',
    ];
    for (const page of pages) {
      const res = await svc.request('GET', page);
      expect(res.status, page).toBe(200);
      for (const [label, value] of secrets) expect(res.text.includes(value), `${label} on ${page}`).toBe(false);
    }
  });

  it('looks keys and sessions up by hash and compares them in constant time', async () => {
    for (const [key, session] of [
      [ACME_KEY, undefined],
      [secrets.get('new API key')!, undefined],
      [ACME_KEY, secrets.get('converted session token')!],
    ] as const) {
      const before = compared.count;
      const res = await svc.request('GET', session === undefined ? '/apps' : '/mfa/status', {
        key,
        ...(session === undefined ? {} : { headers: { authorization: `Bearer ${session}` } }),
      });
      expect(res.status).toBe(200);
      expect(compared.count - before, 'timingSafeEqual calls').toBeGreaterThanOrEqual(session === undefined ? 1 : 2);
    }
  });

  it.each([
    'ftp://127.0.0.1/hook',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'ws://127.0.0.1/hook',
    '//127.0.0.1/hook',
    'gopher://127.0.0.1:70/',
  ])('refuses the webhook target %s on create and on change', async (url) => {
    const created = await svc.request('POST', '/webhooks', { body: { url, events: ['*'] } });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'validation_error', details: expect.arrayContaining([expect.objectContaining({ path: 'url' })]) });
    const hooks = (await svc.request('GET', '/webhooks')).body.data as Array<{ id: string }>;
    const changed = await svc.request('PATCH', `/webhooks/${hooks[0]!.id}`, { body: { url } });
    expect(changed.status).toBe(400);
  });
});

describe('the server log', () => {
  const dataDir = join(import.meta.dirname, '..', 'test-artifacts', `secrets-log-${process.pid}`);
  beforeAll(ensureBuilt, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('never prints a secret, even for requests that fail because of one', async () => {
    const svc = await startServeProcess(['--data-dir', dataDir]);
    try {
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> => {
        const res = await fetch(`${svc.baseUrl}${path}`, {
          method,
          headers: { 'x-api-key': ACME_KEY, 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return res.json();
      };
      const secrets = [ACME_KEY, GLOBEX_KEY, ...FIXTURE.tenants.map((t) => t.settings.telegram.botToken)];
      secrets.push((await call('POST', '/api-keys', { name: 'log test' })).data.key);
      secrets.push((await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).data.secret);
      const guest = (await call('POST', '/guests', {})).data;
      secrets.push(guest.session.token);
      const botToken = '7000000010:AAbotTokenThatMustNotBeLogged0000000';
      secrets.push(botToken);
      await call('PATCH', '/tenant', { settings: { telegram: { botUsername: 'acme_bot', botToken } } });
      // Requests that fail carrying secrets: a wrong key, a bad session, a body the schema refuses.
      await call('GET', '/apps', undefined, { 'x-api-key': `${ACME_KEY}x` });
      await call('GET', '/mfa/status', undefined, { authorization: `Bearer ${guest.session.token}x` });
      await call('PATCH', '/tenant', { settings: { telegram: { botToken, botUsername: 42 } } });
      await call('POST', '/_emulator/trigger', { type: 'user.created' });
      svc.child.kill('SIGTERM');
      expect((await svc.exited).code).toBe(0);
      // The ready line prints the fixture keys on purpose (README); everything after it is the log.
      const lines = svc.stdout().split('\n');
      const log = [...lines.slice(lines.findIndex((line) => line.includes('"msg":"ready"')) + 1), svc.stderr()].join('\n');
      expect(log).toMatch(/"msg":"request"/);
      for (const secret of secrets) expect(log.includes(secret), `${secret.slice(0, 12)}… in the log`).toBe(false);
      expect(log).not.toMatch(/sk_test_\w{32}|whsec_\w{32}|st_\w{20,}|dst_\w{20,}/);
    } finally {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
    }
  });
});
