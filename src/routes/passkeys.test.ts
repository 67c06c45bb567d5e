import { decodeCredentialPublicKey, isoBase64URL } from '@simplewebauthn/server/helpers';
import { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository, WebAuthnEmulator } from 'nid-webauthn-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { expectError } from '../test-support/expect-error.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

/** The tenant's default allowed origin and RP ID (D3 settings). */
const ORIGIN = 'http://localhost:4010';

/** A software authenticator of its own (the package's default store is shared by every instance). */
function authenticator(options: { repository?: PasskeysCredentialsMemoryRepository; counterStep?: number } = {}) {
  const repository = options.repository ?? new PasskeysCredentialsMemoryRepository();
  const device = new AuthenticatorEmulator({
    algorithmIdentifiers: ['ES256'],
    signCounterIncrement: options.counterStep ?? 1,
    credentialsRepository: repository,
  });
  return { webauthn: new WebAuthnEmulator(device), repository };
}

type Device = ReturnType<typeof authenticator>;

describe('passkeys', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  const registerOptions = async (email: string, name?: string) => {
    const res = await svc.request('POST', '/auth/passkey/register-options', { body: { email, ...(name ? { name } : {}) } });
    expect(res.status).toBe(200);
    return res.body.data as { challengeId: string; options: any };
  };
  const loginOptions = async (email?: string, key?: string) => {
    const res = await svc.request('GET', `/auth/passkey/login-options${email ? `?email=${encodeURIComponent(email)}` : ''}`, key ? { key } : {});
    expect(res.status).toBe(200);
    return res.body.data as { challengeId: string; options: any };
  };
  const registerVerify = (challengeId: string, response: unknown) => svc.request('POST', '/auth/passkey/register-verify', { body: { challengeId, response } });
  const loginVerify = (challengeId: string, response: unknown, key?: string) =>
    svc.request('POST', '/auth/passkey/login-verify', { body: { challengeId, response }, ...(key ? { key } : {}) });
  const register = async (device: Device, email: string, name?: string) => {
    const { challengeId, options } = await registerOptions(email, name);
    return registerVerify(challengeId, device.webauthn.createJSON(ORIGIN, options));
  };
  const login = async (device: Device, email?: string) => {
    const { challengeId, options } = await loginOptions(email);
    return loginVerify(challengeId, device.webauthn.getJSON(ORIGIN, options));
  };
  const eventsFor = (userId: string) =>
    svc.emulator.rt.store
      .ofTenant('events', ACME_TENANT_ID)
      .filter((e) => e.data['userId'] === userId)
      .map((e) => e.type);

  let alice: Device;
  let aliceId: string;

  it('registers a new user with a passkey (real CBOR attestation, ES256) and signs them in', async () => {
    alice = authenticator();
    const { challengeId, options } = await registerOptions('alice.passkey@example.com', 'Alice Passkey');
    expect(options).toMatchObject({ rp: { id: 'localhost' }, user: { name: 'alice.passkey@example.com', displayName: 'Alice Passkey' }, attestation: 'none' });
    expect(options.pubKeyCredParams[0]).toEqual({ type: 'public-key', alg: -7 });
    const res = await registerVerify(challengeId, alice.webauthn.createJSON(ORIGIN, options));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { user, session } = res.body.data;
    aliceId = user.id;
    expect(user).toMatchObject({ email: 'alice.passkey@example.com', name: 'Alice Passkey', trustLevel: 'basic' });
    expect(session.token).toMatch(/^st_/);
    expect(eventsFor(user.id)).toEqual(['user.created']);

    const [stored] = svc.emulator.rt.store.ofTenant('passkeys', ACME_TENANT_ID).filter((p) => p.userId === user.id);
    expect(stored!.counter).toBe(0);
    const cose = decodeCredentialPublicKey(isoBase64URL.toBuffer(stored!.publicKey));
    expect(cose.get(3)).toBe(-7); // COSE alg: ES256
    expect((await svc.request('GET', '/mfa/status', { headers: { authorization: `Bearer ${session.token}` } })).status).toBe(200);
  });

  it('logs in with a discoverable passkey and with one asked for by email; the counter advances', async () => {
    const first = await login(alice);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.user.id).toBe(aliceId);
    const { options } = await loginOptions('alice.passkey@example.com');
    expect(options.allowCredentials).toHaveLength(1);
    const second = await login(alice, 'alice.passkey@example.com');
    expect(second.status, second.text).toBe(200);
    const stored = svc.emulator.rt.store.ofTenant('passkeys', ACME_TENANT_ID).find((p) => p.userId === aliceId)!;
    expect(stored.counter).toBe(2);
    expect(stored.lastUsedAt).not.toBeNull();
    const methods = svc.emulator.rt.store
      .ofTenant('sessions', ACME_TENANT_ID)
      .filter((s) => s.userId === aliceId)
      .map((s) => s.method);
    expect(methods).toEqual(['passkey', 'passkey', 'passkey']);
  });

  it('adds a passkey to an existing user by email: user.updated, not user.created', async () => {
    const laptop = authenticator();
    const { options } = await registerOptions('alice.passkey@example.com');
    expect(options.excludeCredentials).toHaveLength(1);
    const res = await register(laptop, 'alice.passkey@example.com');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user.id).toBe(aliceId);
    expect(eventsFor(aliceId)).toEqual(['user.created', 'user.updated']);
    expect((await login(laptop)).body.data.user.id).toBe(aliceId);

    const bob = await register(authenticator(), 'BOB.chen1@acme.test');
    expect(bob.status).toBe(200);
    expect(bob.body.data.user.name).toBe('Bob Chen');
    expect(eventsFor(bob.body.data.user.id)).toEqual(['user.updated']);
  });

  it('a reused challenge is 410 challenge_expired, for login and registration', async () => {
    const { challengeId, options } = await loginOptions();
    expect((await loginVerify(challengeId, alice.webauthn.getJSON(ORIGIN, options))).status).toBe(200);
    expectError(await loginVerify(challengeId, alice.webauthn.getJSON(ORIGIN, options)), 410, 'challenge_expired');

    const registration = await registerOptions('reuse@example.com');
    const device = authenticator();
    expect((await registerVerify(registration.challengeId, device.webauthn.createJSON(ORIGIN, registration.options))).status).toBe(200);
    expectError(await registerVerify(registration.challengeId, authenticator().webauthn.createJSON(ORIGIN, registration.options)), 410, 'challenge_expired');
  });

  it('an expired challenge (5 minutes on the emulator clock) is 410 challenge_expired', async () => {
    const login = await loginOptions();
    const registration = await registerOptions('late@example.com');
    svc.emulator.rt.clock.advance(5 * 60 * 1000 + 1_000);
    const expired = await loginVerify(login.challengeId, alice.webauthn.getJSON(ORIGIN, login.options));
    expectError(expired, 410, 'challenge_expired');
    // The clock ended it: details name the emulator's now and the real now.
    expect(expired.body.details).toEqual([expect.objectContaining({ path: 'challengeId', emulatorNow: expect.any(String), realNow: expect.any(String) })]);
    expectError(await registerVerify(registration.challengeId, authenticator().webauthn.createJSON(ORIGIN, registration.options)), 410, 'challenge_expired');
  });

  it('a wrong origin is 400 webauthn_origin_mismatch', async () => {
    const registration = await registerOptions('origin@example.com');
    expectError(
      await registerVerify(registration.challengeId, authenticator().webauthn.createJSON('http://localhost:5173', registration.options)),
      400,
      'webauthn_origin_mismatch',
    );
    const { challengeId, options } = await loginOptions();
    expectError(await loginVerify(challengeId, alice.webauthn.getJSON('http://localhost:5173', options)), 400, 'webauthn_origin_mismatch');
    expect(svc.emulator.rt.store.ofTenant('users', ACME_TENANT_ID).some((u) => u.email === 'origin@example.com')).toBe(false);
  });

  it('a wrong RP ID is 400 webauthn_rp_id_mismatch (on an allowed origin)', async () => {
    const elsewhere = 'http://login.example.test';
    await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins: [ORIGIN, elsewhere] } } } });
    try {
      const device = authenticator();
      const registration = await registerOptions('rp@example.com');
      const forOtherRp = { ...registration.options, rp: { ...registration.options.rp, id: 'login.example.test' } };
      expectError(await registerVerify(registration.challengeId, device.webauthn.createJSON(elsewhere, forOtherRp)), 400, 'webauthn_rp_id_mismatch');
      const { challengeId, options } = await loginOptions();
      expectError(
        await loginVerify(challengeId, device.webauthn.getJSON(elsewhere, { ...options, rpId: 'login.example.test' })),
        400,
        'webauthn_rp_id_mismatch',
      );
    } finally {
      await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins: [ORIGIN] } } } });
    }
  });

  it('an unknown credential is 400 unknown_credential, also for another tenant', async () => {
    const stranger = authenticator();
    stranger.webauthn.createJSON(ORIGIN, {
      rp: { id: 'localhost', name: 'somewhere else' },
      user: { id: isoBase64URL.fromBuffer(new Uint8Array([1, 2, 3, 4])), name: 'stranger', displayName: 'Stranger' },
      challenge: isoBase64URL.fromBuffer(new Uint8Array(32)),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'required' },
    });
    const { challengeId, options } = await loginOptions();
    expectError(await loginVerify(challengeId, stranger.webauthn.getJSON(ORIGIN, options)), 400, 'unknown_credential');

    const globex = await loginOptions(undefined, GLOBEX_KEY);
    expectError(await loginVerify(globex.challengeId, alice.webauthn.getJSON(ORIGIN, globex.options), GLOBEX_KEY), 400, 'unknown_credential');
    const acme = await loginOptions();
    expectError(await loginVerify(acme.challengeId, alice.webauthn.getJSON(ORIGIN, acme.options), GLOBEX_KEY), 404, 'not_found');
  });

  it('a bad signature is 400 webauthn_verification_failed, and so is an answer to another challenge', async () => {
    const { challengeId, options } = await loginOptions();
    const assertion = alice.webauthn.getJSON(ORIGIN, options);
    const signature = isoBase64URL.toBuffer(assertion.response.signature);
    signature[signature.length - 1]! ^= 0x01;
    const forged = { ...assertion, response: { ...assertion.response, signature: isoBase64URL.fromBuffer(signature) } };
    expectError(await loginVerify(challengeId, forged), 400, 'webauthn_verification_failed');

    const first = await loginOptions();
    const second = await loginOptions();
    expectError(await loginVerify(second.challengeId, alice.webauthn.getJSON(ORIGIN, first.options)), 400, 'webauthn_verification_failed');
  });

  it('a signature counter that did not advance (a cloned authenticator) is 400 counter_not_advanced', async () => {
    const original = authenticator();
    expect((await register(original, 'clone@example.com')).status).toBe(200);
    expect((await login(original, 'clone@example.com')).status).toBe(200);
    const clone = authenticator({ repository: original.repository, counterStep: 0 });
    expectError(await login(clone, 'clone@example.com'), 400, 'counter_not_advanced');
    expect((await login(original, 'clone@example.com')).status).toBe(200);
  });

  it.each([
    ['GET', '/auth/passkey/login-options?email=nobody%40example.com', undefined, 404],
    ['GET', '/auth/passkey/login-options?email=not-an-email', undefined, 400],
    ['POST', '/auth/passkey/register-options', {}, 400],
    ['POST', '/auth/passkey/register-verify', { challengeId: 'chl_x' }, 400],
    [
      'POST',
      '/auth/passkey/login-verify',
      {
        challengeId: 'chl_unknown',
        response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' } },
      },
      404,
    ],
  ])('%s %s answers %i', async (method, path, body, status) => {
    const res = await svc.request(method, path, body === undefined ? {} : { body });
    expect(res.status).toBe(status);
  });

  it('garbage in a well-formed response is 400, never 500', async () => {
    const { challengeId } = await loginOptions();
    const res = await loginVerify(challengeId, {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
    });
    expectError(res, 400, 'webauthn_verification_failed');
    const registration = await registerOptions('garbage@example.com');
    const bad = await registerVerify(registration.challengeId, {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
    });
    expectError(bad, 400, 'webauthn_verification_failed');
  });
});
