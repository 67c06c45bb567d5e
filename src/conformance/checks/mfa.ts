/**
 * MFA (spec part 4, 5.4; DESIGN D5, D15): setup with a TOTP secret, enabling with a code,
 * challenge and verify, wrong codes, and the 403 `mfa_required` once the session is no longer
 * fresh. Codes are made with `otpauth` (RFC 6238) at the emulator clock's time, as D5 judges them.
 */
import { Secret, TOTP } from 'otpauth';
import { envelope } from '../../schemas/common.js';
import { MfaChallenge, MfaEnabled, MfaSetup, MfaStatus, MfaVerified } from '../../schemas/mfa.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { advanceClock, emulatorNow, guestSession, type Session } from './sessions.js';

interface MfaUser extends Session {
  secret: string;
  recoveryCodes: string[];
}

export async function totp(ctx: CheckContext, secret: string): Promise<string> {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: await emulatorNow(ctx) });
}

type Answer<K extends keyof CheckContext['client']['mfa']> = Awaited<ReturnType<CheckContext['client']['mfa'][K]>>;

/** Sets up and enables MFA for a signed-in user (D5). */
export async function enableMfa<S extends Session>(ctx: CheckContext, session: S): Promise<S & MfaUser & { setup: Answer<'setup'>; enabled: Answer<'verifySetup'> }> {
  const setup = await ctx.client.mfa.setup(session.token);
  const { data } = expectShape(setup, envelope(MfaSetup), 'D5/D15: setup answers secret, otpauthUrl, qrCode');
  const enabled = await ctx.client.mfa.verifySetup(session.token, await totp(ctx, data.secret));
  const body = expectShape(enabled, envelope(MfaEnabled), 'D5: verify-setup with a right code enables MFA');
  // The next code must come from a later 30-second step than the one just used.
  await advanceClock(ctx, '30s');
  return { ...session, secret: data.secret, recoveryCodes: body.data.recoveryCodes, setup, enabled };
}

/** A guest with MFA set up and enabled, made once per run. */
function mfaUser(ctx: CheckContext) {
  return ctx.shared('mfa-user', async () => enableMfa(ctx, await guestSession(ctx)));
}

/** Moves the emulator clock past the tenant's MFA freshness, so no session is fresh any more. */
export async function outliveFreshness(ctx: CheckContext): Promise<void> {
  const tenant = await ctx.client.tenant.get();
  await advanceClock(ctx, tenant.ok ? tenant.body.data.settings.mfaFreshness : '10m');
  await advanceClock(ctx, '1s');
}

async function challenge(ctx: CheckContext, token: string): Promise<string> {
  const result = await ctx.client.mfa.challenge(token);
  expectStatus(result, [200, 201], 'D5: POST /mfa/challenge opens a challenge');
  return expectShape(result, envelope(MfaChallenge), 'D15: challenge answers challengeId, expiresAt').data.challengeId;
}

export const mfaChecks: Check[] = [
  {
    id: 'mfa.setup',
    tags: ['mfa', 'clock'],
    description: 'POST /mfa/setup answers a base32 secret, an otpauth:// URL holding it and a QR code',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { setup, secret } = await mfaUser(ctx);
      const { data } = expectShape(setup, envelope(MfaSetup), 'D5: setup fields');
      expect(data.otpauthUrl.includes(`secret=${secret}`), 'D5: the otpauth URL carries the secret', data.otpauthUrl, setup);
    },
  },
  {
    id: 'mfa.enable',
    tags: ['mfa', 'clock'],
    description: 'POST /mfa/verify-setup with a TOTP code enables MFA and answers 10 recovery codes; status says enabled',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { enabled, recoveryCodes, token } = await mfaUser(ctx);
      expect(recoveryCodes.length === 10 && new Set(recoveryCodes).size === 10, 'D5: 10 one-time recovery codes', `${recoveryCodes.length} codes`, enabled);
      const status = await ctx.client.mfa.status(token);
      const { data } = expectShape(status, envelope(MfaStatus), 'D15: GET /mfa/status');
      expect(data.enabled, 'D5: verify-setup enables MFA', 'status says disabled', status);
    },
  },
  {
    id: 'mfa.wrong-code',
    tags: ['mfa', 'clock'],
    description: 'POST /mfa/verify with a wrong code is 400 invalid_code',
    spec: 'D5',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await mfaUser(ctx);
      const right = await totp(ctx, user.secret);
      const wrong = right === '000000' ? '111111' : '000000';
      const result = await ctx.client.mfa.verify(user.token, { challengeId: await challenge(ctx, user.token), code: wrong });
      expectErrorCode(result, 400, 'invalid_code', 'D5: a wrong code is 400 invalid_code');
    },
  },
  {
    id: 'mfa.verify',
    tags: ['mfa', 'clock'],
    description: 'challenge, then verify with the TOTP code: verified, and the session is fresh until freshUntil',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await mfaUser(ctx);
      const result = await ctx.client.mfa.verify(user.token, { challengeId: await challenge(ctx, user.token), code: await totp(ctx, user.secret) });
      const { data } = expectShape(result, envelope(MfaVerified), 'D5: a right code verifies');
      const status = await ctx.client.mfa.status(user.token);
      expect(status.ok && status.body.data.freshUntil === data.freshUntil, 'D5: the session is MFA-fresh until freshUntil', `status freshUntil ${status.ok ? status.body.data.freshUntil : '?'}`, status);
    },
  },
  {
    id: 'mfa.required-403',
    tags: ['mfa', 'clock'],
    description: 'once the session is no longer fresh, DELETE /mfa is 403 mfa_required; after verify with a recovery code it disables MFA',
    spec: 'part 5.4 (403 when a multi-factor check is required), D5',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await mfaUser(ctx);
      await outliveFreshness(ctx);
      expectErrorCode(await ctx.client.mfa.disable(user.token), 403, 'mfa_required', 'part 5.4/D5: an operation that needs a fresh MFA check answers 403');
      const verified = await ctx.client.mfa.verify(user.token, { challengeId: await challenge(ctx, user.token), code: user.recoveryCodes[0]! });
      expectStatus(verified, 200, 'D5: a recovery code verifies');
      const disabled = await ctx.client.mfa.disable(user.token);
      expectStatus(disabled, 200, 'D5: DELETE /mfa with a fresh session disables MFA');
      const status = await ctx.client.mfa.status(user.token);
      expect(status.ok && !status.body.data.enabled, 'D5: MFA is off after DELETE /mfa', 'status says enabled', status);
    },
  },
  {
    id: 'mfa.lock',
    tags: ['mfa', 'clock'],
    description: 'five wrong codes in a row lock MFA: challenge then answers 429 mfa_locked with Retry-After',
    spec: 'part 7 (429), D5',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await enableMfa(ctx, await guestSession(ctx));
      const wrong = (await totp(ctx, user.secret)) === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const result = await ctx.client.mfa.verify(user.token, { challengeId: await challenge(ctx, user.token), code: wrong });
        expectErrorCode(result, 400, 'invalid_code', `D5: wrong code ${attempt} is 400 invalid_code`);
      }
      const locked = await ctx.client.mfa.challenge(user.token);
      expectErrorCode(locked, 429, 'mfa_locked', 'D5: after 5 wrong codes MFA is locked (429 mfa_locked)');
      expect(/^\d+$/.test(locked.headers.get('retry-after') ?? ''), 'D5: a locked answer says when to come back (Retry-After)', `Retry-After "${locked.headers.get('retry-after')}"`, locked);
    },
  },
  {
    id: 'mfa.needs-session',
    tags: ['mfa', 'sessions'],
    description: 'GET /mfa/status without a session token is 401 missing_session',
    spec: 'D4',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => expectErrorCode(await ctx.client.request('GET', '/mfa/status'), 401, 'missing_session', 'D4: /mfa/* acts for a signed-in user'),
  },
];
