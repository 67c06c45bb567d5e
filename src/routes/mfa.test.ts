import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

const MINUTE = 60 * 1000;

describe('MFA', () => {
  let svc: InProcessEmulator;
  let headers: Record<string, string>;
  let userId: string;
  let totp: TOTP;
  let recoveryCodes: string[];

  /** A code computed by the library from the secret the API returned, at emulator time + offset. */
  const code = (offsetMs = 0) => totp.generate({ timestamp: svc.emulator.rt.clock.nowMs() + offsetMs });
  const call = (method: string, path: string, body?: unknown) => svc.request(method, path, { headers, ...(body === undefined ? {} : { body }) });
  const challenge = async () => {
    const res = await call('POST', '/mfa/challenge', {});
    expect(res.status).toBe(201);
    expect(res.body.data.challengeId).toMatch(/^mfc_/);
    return res.body.data.challengeId as string;
  };
  const eventsOf = (type: string) => svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).filter((e) => e.type === type && e.data['userId'] === userId);

  beforeAll(async () => {
    svc = await startInProcess();
    const guest = (await svc.request('POST', '/guests', { body: {} })).body.data;
    const signedIn = (await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'mfa.user@example.com' } })).body.data;
    headers = { authorization: `Bearer ${signedIn.session.token}` };
    userId = signedIn.user.id;
  });
  afterAll(() => svc.close());

  it('starts with MFA off; challenge needs MFA on', async () => {
    expect((await call('GET', '/mfa/status')).body.data).toMatchObject({ enabled: false, freshUntil: null });
    expect((await call('POST', '/mfa/challenge', {})).status).toBe(409);
    expect((await call('DELETE', '/mfa')).status).toBe(409);
  });

  it('sets up TOTP: secret, otpauth URL and a PNG QR code; a wrong first code is 400', async () => {
    const res = await call('POST', '/mfa/setup', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { secret, otpauthUrl, qrCode } = res.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    const png = Buffer.from(qrCode.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    const bad = await call('POST', '/mfa/verify-setup', { code: wrong });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_code');
    expect((await call('GET', '/mfa/status')).body.data.enabled).toBe(false);
  });

  it('enables MFA with a code from the library, answering 10 recovery codes once', async () => {
    const res = await call('POST', '/mfa/verify-setup', { code: code() });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.data.enabled).toBe(true);
    recoveryCodes = res.body.data.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(eventsOf('mfa.enabled')).toHaveLength(1);
    const stored = JSON.stringify(svc.emulator.rt.store.get('mfa', userId));
    for (const plain of recoveryCodes) expect(stored).not.toContain(plain);
    expect((await call('GET', '/mfa/status')).body.data).toMatchObject({ enabled: true, freshUntil: null, recoveryCodesRemaining: 10 });
    expect((await call('POST', '/mfa/setup', {})).status).toBe(409);
  });

  it('guards DELETE /mfa with 403 mfa_required until a fresh verification, which lasts 10 minutes', async () => {
    const denied = await call('DELETE', '/mfa');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('mfa_required');

    const id = await challenge();
    const verified = await call('POST', '/mfa/verify', { challengeId: id, code: code() });
    expect(verified.status).toBe(200);
    const freshUntil = Date.parse(verified.body.data.freshUntil);
    expect(freshUntil - svc.emulator.rt.clock.nowMs()).toBeGreaterThan(9 * MINUTE);
    expect(freshUntil - svc.emulator.rt.clock.nowMs()).toBeLessThanOrEqual(10 * MINUTE);
    expect((await call('GET', '/mfa/status')).body.data.freshUntil).toBe(verified.body.data.freshUntil);

    const reused = await call('POST', '/mfa/verify', { challengeId: id, code: code() });
    expect(reused.status).toBe(410);
    expect(reused.body.code).toBe('challenge_expired');

    svc.emulator.rt.clock.advance(10 * MINUTE + 1_000);
    expect((await call('DELETE', '/mfa')).status).toBe(403);
  });

  it.each([
    ['the previous step', -30_000, 200],
    ['the next step', 30_000, 200],
    ['two steps ago', -60_000, 400],
    ['two steps ahead', 60_000, 400],
  ])('accepts a code of %s only within ±1 step (%i ms → %i)', async (_name, offset, status) => {
    // Align to the middle of a step so that ±30 s lands exactly one step away.
    const now = svc.emulator.rt.clock.nowMs();
    svc.emulator.rt.clock.advance(30_000 - (now % 30_000) + 15_000);
    const res = await call('POST', '/mfa/verify', { challengeId: await challenge(), code: code(offset) });
    expect(res.status).toBe(status);
  });

  it('an expired challenge is 410', async () => {
    const id = await challenge();
    svc.emulator.rt.clock.advance(5 * MINUTE + 1_000);
    const res = await call('POST', '/mfa/verify', { challengeId: id, code: code() });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('challenge_expired');
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'challengeId', emulatorNow: expect.any(String), realNow: expect.any(String) })]);
  });

  it('accepts a recovery code once', async () => {
    const first = await call('POST', '/mfa/verify', { challengeId: await challenge(), code: recoveryCodes[0]!.toUpperCase() });
    expect(first.status).toBe(200);
    expect((await call('GET', '/mfa/status')).body.data.recoveryCodesRemaining).toBe(9);
    const second = await call('POST', '/mfa/verify', { challengeId: await challenge(), code: recoveryCodes[0] });
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('invalid_code');
    expect((await call('POST', '/mfa/verify', { challengeId: await challenge(), code: recoveryCodes[1] })).status).toBe(200);
  });

  it('locks after 5 wrong codes in a row: 429 mfa_locked with Retry-After, for 15 minutes', async () => {
    const id = await challenge();
    for (let i = 1; i <= 5; i++) {
      const res = await call('POST', '/mfa/verify', { challengeId: id, code: '000000' === code() ? '111111' : '000000' });
      expect(res.status, `wrong code ${i}`).toBe(400);
      expect(res.body.code).toBe('invalid_code');
    }
    for (const [method, path, body] of [
      ['POST', '/mfa/verify', { challengeId: id, code: code() }],
      ['POST', '/mfa/challenge', {}],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, path).toBe(429);
      expect(res.body.code).toBe('mfa_locked');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    expect((await call('GET', '/mfa/status')).body.data.locked).toBe(true);
    svc.emulator.rt.clock.advance(15 * MINUTE);
    const res = await call('POST', '/mfa/verify', { challengeId: await challenge(), code: code() });
    expect(res.status).toBe(200);
  });

  it('a right code resets the count of wrong ones', async () => {
    for (let i = 0; i < 4; i++) await call('POST', '/mfa/verify', { challengeId: await challenge(), code: 'wrong-code' });
    expect((await call('POST', '/mfa/verify', { challengeId: await challenge(), code: code() })).status).toBe(200);
    for (let i = 0; i < 4; i++) await call('POST', '/mfa/verify', { challengeId: await challenge(), code: 'wrong-code' });
    expect((await call('POST', '/mfa/challenge', {})).status).toBe(201);
  });

  it('disables MFA when fresh, emitting mfa.disabled', async () => {
    await call('POST', '/mfa/verify', { challengeId: await challenge(), code: code() });
    const res = await call('DELETE', '/mfa');
    expect(res.status).toBe(200);
    expect(res.body.data.enabled).toBe(false);
    expect(eventsOf('mfa.disabled')).toHaveLength(1);
    expect((await call('GET', '/mfa/status')).body.data.enabled).toBe(false);
  });
});

describe('MFA setup and challenge bodies', () => {
  let svc: InProcessEmulator;
  let headers: Record<string, string>;
  beforeAll(async () => {
    svc = await startInProcess();
    const guest = (await svc.request('POST', '/guests', { body: {} })).body.data;
    headers = { authorization: `Bearer ${guest.session.token}` };
  });
  afterAll(() => svc.close());

  it.each([
    // [body as sent, content type, status of setup, status of challenge (MFA is off: 409 once the body passes)]
    [undefined, undefined, 200, 409],
    ['', 'application/json', 200, 409],
    ['{}', 'application/json', 200, 409],
    ['{"unknown":1}', 'application/json', 200, 409],
    ['[]', 'application/json', 400, 400],
    ['"text"', 'application/json', 400, 400],
  ])('takes %j (%s) as the optional empty body: setup %i, challenge %i', async (rawBody, type, setup, challenge) => {
    const options = { headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) }, ...(rawBody === undefined ? {} : { rawBody }) };
    expect((await svc.request('POST', '/mfa/setup', options)).status).toBe(setup);
    expect((await svc.request('POST', '/mfa/challenge', options)).status).toBe(challenge);
  });
});
