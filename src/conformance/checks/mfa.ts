/**
 * MFA (spec part 4, 5.4; D5, D15): setup with a TOTP secret, enabling with a code,
 * challenge and verify, wrong codes, and the 403 `mfa_required` once the session is no longer
 * fresh. Codes are made with `otpauth` (RFC 6238) at the emulator clock's time, as D5 judges them.
 */
import { Secret, TOTP } from 'otpauth';
import { envelope } from '../../schemas/common.js';
import { MfaChallenge, MfaEnabled, MfaSetup, MfaStatus, MfaVerified } from '../../schemas/mfa.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import {
  advanceClock,
  advancePast,
  emulatorNow,
  expectClockTimes,
  guestSession,
  HOLDS_SESSION,
  PAST_UP_TO,
  stepJustPast,
  stepToJustBefore,
  type Session,
} from './sessions.js';

interface MfaUser extends Session {
  secret: string;
  recoveryCodes: string[];
  /** The emulator time the code that enabled MFA was made for. */
  enabledAt: number;
}

/** The TOTP code of `secret` at `nowMs`, a time of the emulator clock (D5 judges codes on it). */
export function codeAt(secret: string, nowMs: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: nowMs });
}

/** A code that is not the right one at `nowMs`. */
function wrongCode(secret: string, nowMs: number): string {
  return codeAt(secret, nowMs) === '000000' ? '111111' : '000000';
}

type Answer<K extends keyof CheckContext['client']['mfa']> = Awaited<ReturnType<CheckContext['client']['mfa'][K]>>;

/**
 * Sets up and enables MFA for a signed-in user (D5). It leaves the clock where it is (so the
 * checks that only enable MFA need not run apart from others): a check that then verifies a
 * right code moves to a later TOTP step first (nextStep).
 */
export async function enableMfa<S extends Session>(
  ctx: CheckContext,
  session: S,
): Promise<S & MfaUser & { setup: Answer<'setup'>; enabled: Answer<'verifySetup'> }> {
  // The clock is read while setup is answered: a code is good for ±30 s (D5), far more than a round trip.
  const [setup, enabledAt] = await Promise.all([ctx.client.mfa.setup(session.token), emulatorNow(ctx)]);
  const { data } = expectShape(setup, envelope(MfaSetup), 'D5/D15: setup answers secret, otpauthUrl, qrCode');
  const enabled = await ctx.client.mfa.verifySetup(session.token, codeAt(data.secret, enabledAt));
  const body = expectShape(enabled, envelope(MfaEnabled), 'D5: verify-setup with a right code enables MFA');
  return { ...session, secret: data.secret, recoveryCodes: body.data.recoveryCodes, enabledAt, setup, enabled };
}

/**
 * A code used once may be refused again (RFC 6238 5.2): the next right code comes from a later
 * 30-second step. Answers the emulator's now after the step.
 */
function nextStep(ctx: CheckContext): Promise<number> {
  // Any later step will do, while the challenge opened beside it (5 minutes) is still well in time.
  return advanceClock(ctx, '30s', '3m');
}

/** A guest with MFA set up and enabled, made once per run. */
function mfaUser(ctx: CheckContext) {
  return ctx.shared('mfa-user', async () => enableMfa(ctx, await guestSession(ctx)));
}

/** Moves the emulator clock past the MFA freshness the run holds, so no session is fresh any more. */
export async function outliveFreshness(ctx: CheckContext): Promise<void> {
  await advancePast(ctx, 'mfaFreshness', PAST_UP_TO);
}

async function challenge(ctx: CheckContext, token: string): Promise<string> {
  const result = await ctx.client.mfa.challenge(token);
  expectStatus(result, [200, 201], 'D5: POST /mfa/challenge opens a challenge');
  return expectShape(result, envelope(MfaChallenge), 'D15: challenge answers challengeId, expiresAt').data.challengeId;
}

export const mfaChecks: Check[] = [
  {
    id: 'mfa.setup',
    tags: ['mfa'],
    description: 'POST /mfa/setup answers a base32 secret, an otpauth:// URL holding it and a QR code',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const { setup, secret } = await mfaUser(ctx);
      const { data } = expectShape(setup, envelope(MfaSetup), 'D5: setup fields');
      expect(data.otpauthUrl.includes(`secret=${secret}`), 'D5: the otpauth URL carries the secret', data.otpauthUrl, setup);
    },
  },
  {
    id: 'mfa.enable',
    tags: ['mfa'],
    description:
      'setup alone leaves MFA off; POST /mfa/verify-setup with a code of its secret enables MFA and answers 10 recovery codes, as status then counts',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['setupMfa', 'verifyMfaSetup'],
    run: async (ctx) => {
      const { token } = await guestSession(ctx);
      const status = async () => {
        const result = await ctx.client.mfa.status(token);
        return { result, data: expectShape(result, envelope(MfaStatus), 'D15: GET /mfa/status').data };
      };
      const [setup, enabledAt] = await Promise.all([ctx.client.mfa.setup(token), emulatorNow(ctx)]);
      const { secret } = expectShape(setup, envelope(MfaSetup), 'D5/D15: setup answers secret, otpauthUrl, qrCode').data;
      const pending = await status();
      expect(!pending.data.enabled, 'D5: setup alone does not enable MFA', 'status says enabled before verify-setup', pending.result);
      // The secret setup answered is the one stored: a code made from it enables MFA.
      const enabled = await ctx.client.mfa.verifySetup(token, codeAt(secret, enabledAt));
      const { recoveryCodes } = expectShape(enabled, envelope(MfaEnabled), 'D5: verify-setup with a code of the secret setup answered enables MFA').data;
      expect(recoveryCodes.length === 10 && new Set(recoveryCodes).size === 10, 'D5: 10 one-time recovery codes', `${recoveryCodes.length} codes`, enabled);
      const after = await status();
      expect(after.data.enabled, 'D5: verify-setup enables MFA', 'status says disabled', after.result);
      expect(
        after.data.recoveryCodesRemaining === recoveryCodes.length && !after.data.locked,
        'D5: status counts the recovery codes verify-setup answered, none used',
        `${after.data.recoveryCodesRemaining} remaining of ${recoveryCodes.length}, locked ${after.data.locked}`,
        after.result,
      );
    },
  },
  {
    id: 'mfa.wrong-code',
    tags: ['mfa'],
    description: "POST /mfa/verify with a wrong code is 400 invalid_code, naming the emulator's and the real time",
    spec: 'D5',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await mfaUser(ctx);
      const [now, challengeId] = await Promise.all([emulatorNow(ctx), challenge(ctx, user.token)]);
      const result = await ctx.client.mfa.verify(user.token, { challengeId, code: wrongCode(user.secret, now) });
      expectErrorCode(result, 400, 'invalid_code', 'D5: a wrong code is 400 invalid_code');
      expectClockTimes(result, now, 'D5/D10: a code judged on the emulator clock names the emulator and the real time in details');
    },
  },
  {
    id: 'mfa.lock',
    tags: ['mfa'],
    description: 'five wrong codes in a row lock MFA: challenge then answers 429 mfa_locked with Retry-After',
    spec: 'part 7 (429), D5',
    profile: 'emulator',
    creates: true,
    long: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await enableMfa(ctx, await guestSession(ctx));
      const wrong = wrongCode(user.secret, user.enabledAt);
      // Each next challenge is opened while the code before is judged: nothing is locked before the fifth.
      let challengeId = await challenge(ctx, user.token);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const [result, next] = await Promise.all([
          ctx.client.mfa.verify(user.token, { challengeId, code: wrong }),
          attempt < 5 ? challenge(ctx, user.token) : Promise.resolve(''),
        ]);
        expectErrorCode(result, 400, 'invalid_code', `D5: wrong code ${attempt} is 400 invalid_code`);
        challengeId = next;
      }
      const locked = await ctx.client.mfa.challenge(user.token);
      expectErrorCode(locked, 429, 'mfa_locked', 'D5: after 5 wrong codes MFA is locked (429 mfa_locked)');
      expect(
        /^\d+$/.test(locked.headers.get('retry-after') ?? ''),
        'D5: a locked answer says when to come back (Retry-After)',
        `Retry-After "${locked.headers.get('retry-after')}"`,
        locked,
      );
    },
  },
  {
    id: 'mfa.verify',
    tags: ['mfa', 'clock'],
    description: 'challenge, then verify with the TOTP code: verified, and the session is fresh until freshUntil',
    spec: 'D5, D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: 'steps the clock 30 s, to a TOTP step after the one that enabled MFA' },
    readsBack: ['createMfaChallenge', 'verifyMfa'],
    run: async (ctx) => {
      // A user of its own: no other check verifies with its codes or ends its freshness between its steps.
      const user = await enableMfa(ctx, await guestSession(ctx));
      const [now, challengeId] = await Promise.all([nextStep(ctx), challenge(ctx, user.token)]);
      const code = codeAt(user.secret, now);
      const result = await ctx.client.mfa.verify(user.token, { challengeId, code });
      const { data } = expectShape(result, envelope(MfaVerified), 'D5: a right code verifies');
      const status = await ctx.client.mfa.status(user.token);
      expect(
        status.ok && status.body.data.freshUntil === data.freshUntil,
        'D5: the session is MFA-fresh until freshUntil',
        `status freshUntil ${status.ok ? status.body.data.freshUntil : '?'}`,
        status,
      );
      expect(
        status.ok && status.body.data.recoveryCodesRemaining === user.recoveryCodes.length,
        'D5: a TOTP code spends no recovery code',
        `${status.ok ? status.body.data.recoveryCodesRemaining : '?'} remaining of ${user.recoveryCodes.length}`,
        status,
      );
      // The challenge was spent by the verify: it is not answered twice.
      const again = await ctx.client.mfa.verify(user.token, { challengeId, code });
      expectErrorCode(again, 410, 'challenge_expired', 'D5: a challenge verified once is used (410 challenge_expired)');
    },
  },
  {
    id: 'mfa.required-403',
    tags: ['mfa', 'clock'],
    description:
      'a recovery code verifies, spends one code and keeps the session fresh until freshUntil on the emulator clock; past it DELETE /mfa is 403 mfa_required; a recovery code verifies again, and DELETE /mfa then removes MFA',
    spec: 'part 5.4 (403 when a multi-factor check is required), D5',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: 'steps the clock to 5 s before the MFA freshness ends (10 minutes), then past it' },
    readsBack: ['verifyMfa', 'disableMfa'],
    run: async (ctx) => {
      // A user of its own: it spends recovery codes and removes MFA, which no other check may see.
      const user = await enableMfa(ctx, await guestSession(ctx));
      const status = async () => {
        const result = await ctx.client.mfa.status(user.token);
        return { result, data: expectShape(result, envelope(MfaStatus), 'D15: GET /mfa/status').data };
      };
      // Verified on the session enabling MFA left fresh: the freshness then runs from this verify,
      // so one step of the clock shows both where it ends and the 403 past it.
      const verified = await ctx.client.mfa.verify(user.token, { challengeId: await challenge(ctx, user.token), code: user.recoveryCodes[0]! });
      expectStatus(verified, 200, 'D5: a recovery code verifies');
      const { freshUntil } = expectShape(verified, envelope(MfaVerified), 'D5: verify answers freshUntil').data;
      // The clock is read while the status is: both only read.
      const [spent, verifiedNow] = await Promise.all([status(), emulatorNow(ctx)]);
      expect(
        spent.data.recoveryCodesRemaining === user.recoveryCodes.length - 1,
        'D5: a recovery code is used once: the count left moves by exactly one',
        `${spent.data.recoveryCodesRemaining} remaining of ${user.recoveryCodes.length}`,
        spent.result,
      );
      // freshUntil is when freshness ends on the emulator clock: still fresh 5 s before it, no longer 1 s after.
      const early = await stepToJustBefore(ctx, Date.parse(freshUntil), verifiedNow);
      const before = await status();
      expect(
        before.data.freshUntil === freshUntil,
        'D5: the session is MFA-fresh until the freshUntil verify answered',
        `5 s before it status says ${before.data.freshUntil}`,
        before.result,
      );
      await stepJustPast(ctx, Date.parse(freshUntil), early);
      // Opening a challenge makes no session fresh, so it is opened while DELETE /mfa is refused.
      const [stale, next] = await Promise.all([ctx.client.mfa.disable(user.token), challenge(ctx, user.token)]);
      expectErrorCode(
        stale,
        403,
        'mfa_required',
        'part 5.4/D5: an operation that needs a fresh MFA check answers 403 (past the freshUntil verify answered, on the emulator clock)',
      );
      expectStatus(await ctx.client.mfa.verify(user.token, { challengeId: next, code: user.recoveryCodes[1]! }), 200, 'D5: a recovery code verifies');
      const disabled = await ctx.client.mfa.disable(user.token);
      expectStatus(disabled, 200, 'D5: DELETE /mfa with a fresh session disables MFA');
      // Once DELETE /mfa has answered, the status, a challenge (none opens with MFA off) and a new
      // setup (which enables nothing before verify-setup) are asked at once.
      const [off, noChallenge, again] = await Promise.all([status(), ctx.client.mfa.challenge(user.token), ctx.client.mfa.setup(user.token)]);
      expect(!off.data.enabled, 'D5: MFA is off after DELETE /mfa', 'status says enabled', off.result);
      expect(
        off.data.freshUntil === null && off.data.recoveryCodesRemaining === 0,
        'D5: DELETE /mfa removes the factor: no freshness, no recovery codes left',
        `freshUntil ${off.data.freshUntil}, ${off.data.recoveryCodesRemaining} recovery codes`,
        off.result,
      );
      // Removed, not hidden: no challenge opens, and MFA can be set up anew.
      expectErrorCode(noChallenge, 409, 'conflict', 'D5: with MFA off no challenge opens (409)');
      expectStatus(again, [200, 201], 'D5: once disabled, MFA can be set up again');
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
  {
    id: 'mfa.challenge-expiry',
    tags: ['mfa', 'clock'],
    description:
      "a challenge is answered until its expiresAt on the emulator clock, and past it is 410 challenge_expired for a right code, naming the emulator's and the real time",
    spec: 'part 3.3, part 7 (410), D5, D6, D10',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: "steps the clock past an MFA challenge's expiresAt (5 minutes)" },
    readsBack: ['createMfaChallenge'],
    run: async (ctx) => {
      const user = await enableMfa(ctx, await guestSession(ctx));
      const open = async () => {
        const result = await ctx.client.mfa.challenge(user.token);
        return expectShape(result, envelope(MfaChallenge), 'D15: challenge answers challengeId, expiresAt').data;
      };
      const [first, data] = await Promise.all([open(), open()]);
      // expiresAt is when the challenge ends on the emulator clock: answered 5 s before it, refused 1 s after.
      const early = await stepToJustBefore(ctx, Date.parse(first.expiresAt), await emulatorNow(ctx));
      const inTime = await ctx.client.mfa.verify(user.token, { challengeId: first.challengeId, code: codeAt(user.secret, early) });
      expectStatus(inTime, 200, 'part 3.3/D5: a challenge is answered until its expiresAt on the emulator clock');
      const [status, inTimeNow] = await Promise.all([ctx.client.mfa.status(user.token), emulatorNow(ctx)]);
      expect(
        status.ok && inTime.ok && status.body.data.freshUntil === inTime.body.data.freshUntil,
        'D5: the challenge answered in time makes the session fresh',
        `status freshUntil ${status.ok ? status.body.data.freshUntil : '?'}`,
        status,
      );
      const now = await stepJustPast(ctx, Date.parse(data.expiresAt), inTimeNow);
      // The code is right at the new time: only the challenge's age is wrong.
      const late = await ctx.client.mfa.verify(user.token, { challengeId: data.challengeId, code: codeAt(user.secret, now) });
      expectErrorCode(late, 410, 'challenge_expired', 'part 3.3/D5: a challenge past its expiresAt is 410 challenge_expired');
      expectClockTimes(late, now, 'D6/D10: a challenge the clock ended names the emulator and the real time in details');
    },
  },
];
