/**
 * /v1/tenant, in-process: the tenant the key acts for, and PATCH of its name and settings
 * (D3), with the Telegram bot token write-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY, GLOBEX_TENANT_ID, type ApiResponse } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

/** The seeded bot tokens (fixtures/default.json); they must never come back. */
const ACME_BOT_TOKEN = '7000000001:AAacmeLocalTelegramBotToken000001';
const GLOBEX_BOT_TOKEN = '7000000002:AAglobexLocalTelegramBotToken0002';

function expectValidation(res: ApiResponse, path: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('validation_error');
  expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
}

describe('/v1/tenant', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  it.each([
    ['Acme', undefined, ACME_TENANT_ID, 'Acme Wallet', 'acme_wallet_dev_bot', ACME_BOT_TOKEN],
    ['Globex', GLOBEX_KEY, GLOBEX_TENANT_ID, 'Globex Identity', undefined, GLOBEX_BOT_TOKEN],
  ])('GET /tenant with the %s key answers its tenant, settings and limits, never the bot token', async (_label, key, id, name, botUsername, token) => {
    const res = await svc.request('GET', '/tenant', key === undefined ? {} : { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      name,
      plan: 'pro',
      settings: {
        apiVersion: '2026-11-01',
        sessionTtl: '24h',
        guestTtl: '24h',
        mfaFreshness: '10m',
        webauthn: { rpId: expect.any(String), rpName: expect.any(String), origins: expect.any(Array) },
        telegram: { botUsername: botUsername ?? expect.any(String), botTokenSet: true },
      },
      limits: { requestsPerSecond: 200 },
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(res.body.data.settings.telegram).not.toHaveProperty('botToken');
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain(token.split(':')[1]);
  });

  it('PATCH name renames the tenant and moves updatedAt, leaving settings alone', async () => {
    const before = (await svc.request('GET', '/tenant')).body.data;
    const res = await svc.request('PATCH', '/tenant', { body: { name: '  Acme Renamed  ' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ACME_TENANT_ID, name: 'Acme Renamed', plan: 'pro', settings: before.settings, createdAt: before.createdAt });
    expect(res.body.data.updatedAt > before.updatedAt).toBe(true);
    expect((await svc.request('GET', '/tenant')).body.data).toEqual(res.body.data);
    expect((await svc.request('GET', '/tenant', { key: GLOBEX_KEY })).body.data.name).toBe('Globex Identity');
  });

  it('PATCH settings merges: only the fields sent change, nested objects included', async () => {
    const before = (await svc.request('GET', '/tenant')).body.data.settings;
    const res = await svc.request('PATCH', '/tenant', {
      body: { settings: { sessionTtl: '2h', apiVersion: '2027-01-15', webauthn: { rpName: 'Acme Login' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settings).toEqual({
      ...before,
      sessionTtl: '2h',
      apiVersion: '2027-01-15',
      webauthn: { ...before.webauthn, rpName: 'Acme Login' },
    });
    const second = await svc.request('PATCH', '/tenant', {
      body: {
        settings: { guestTtl: '7d', mfaFreshness: '90s', webauthn: { rpId: 'acme.example', origins: ['https://acme.example', 'http://localhost:5173'] } },
      },
    });
    expect(second.body.data.settings).toMatchObject({
      sessionTtl: '2h',
      guestTtl: '7d',
      mfaFreshness: '90s',
      webauthn: { rpId: 'acme.example', rpName: 'Acme Login', origins: ['https://acme.example', 'http://localhost:5173'] },
    });
    // The pinned version stamps the events recorded from now on (D8).
    const user = await svc.request('POST', '/users', { body: { email: 'pinned@example.com' } });
    const event = [...svc.emulator.rt.store.all('events')].find((e) => e.data['userId'] === user.body.data.id);
    expect(event?.api_version).toBe('2027-01-15');
  });

  it('PATCH of the Telegram bot token stores it but only ever answers botTokenSet', async () => {
    const token = '123456789:AAnewTokenForTheTestBot_-xyz';
    const res = await svc.request('PATCH', '/tenant', { body: { settings: { telegram: { botToken: token } } } });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.telegram).toEqual({ botUsername: 'acme_wallet_dev_bot', botTokenSet: true });
    expect(res.text).not.toContain(token);
    expect((await svc.request('GET', '/tenant')).text).not.toContain(token);
    // Stored for the Telegram sign-in check, where only the emulator reads it.
    expect(svc.emulator.rt.store.get('tenants', ACME_TENANT_ID)?.settings.telegram.botToken).toBe(token);
    const renamed = await svc.request('PATCH', '/tenant', { body: { settings: { telegram: { botUsername: 'acme_new_bot' } } } });
    expect(renamed.body.data.settings.telegram).toEqual({ botUsername: 'acme_new_bot', botTokenSet: true });
    expect(svc.emulator.rt.store.get('tenants', ACME_TENANT_ID)?.settings.telegram.botToken).toBe(token);
  });

  it('an empty PATCH changes nothing but updatedAt; unknown fields (plan, id) are ignored', async () => {
    const before = (await svc.request('GET', '/tenant')).body.data;
    const res = await svc.request('PATCH', '/tenant', { body: { plan: 'enterprise', id: 'ten_other', settings: { color: 'red' } } });
    expect(res.status).toBe(200);
    expect({ ...res.body.data, updatedAt: before.updatedAt }).toEqual(before);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['settings that are not an object', { settings: 'fast' }, 'settings'],
    ['an apiVersion that is not a date', { settings: { apiVersion: 'latest' } }, 'settings.apiVersion'],
    ['an apiVersion that is no calendar date', { settings: { apiVersion: '2026-02-30' } }, 'settings.apiVersion'],
    ['a sessionTtl without a unit', { settings: { sessionTtl: '3600' } }, 'settings.sessionTtl'],
    ['a guestTtl in words', { settings: { guestTtl: 'forever' } }, 'settings.guestTtl'],
    ['an mfaFreshness as a number', { settings: { mfaFreshness: 600 } }, 'settings.mfaFreshness'],
    ['a webauthn origin with a path', { settings: { webauthn: { origins: ['https://a.example/login'] } } }, 'settings.webauthn.origins.0'],
    ['a webauthn rpId with a scheme', { settings: { webauthn: { rpId: 'https://a.example' } } }, 'settings.webauthn.rpId'],
    ['a malformed bot token', { settings: { telegram: { botToken: 'not-a-token' } } }, 'settings.telegram.botToken'],
    ['a bot username with spaces', { settings: { telegram: { botUsername: 'my bot' } } }, 'settings.telegram.botUsername'],
  ])('PATCH /tenant with %s is 400 validation_error at %s, and changes nothing', async (_label, body, path) => {
    const before = (await svc.request('GET', '/tenant')).body.data;
    expectValidation(await svc.request('PATCH', '/tenant', { body }), path);
    expect((await svc.request('GET', '/tenant')).body.data).toEqual(before);
  });

  it('PATCH /tenant with malformed JSON is 400 invalid_json', async () => {
    const res = await svc.request('PATCH', '/tenant', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('the Globex tenant never sees what Acme patched', async () => {
    const globex = (await svc.request('GET', '/tenant', { key: GLOBEX_KEY })).body.data;
    expect(globex).toMatchObject({ id: GLOBEX_TENANT_ID, name: 'Globex Identity', settings: { sessionTtl: '24h', apiVersion: '2026-11-01' } });
  });
});
