/**
 * Passkeys end to end (spec part 4, 5.5; D4, D8, D15) with the suite's software
 * authenticator: register a new person, sign in, and the refusals — a reused challenge, a
 * counter that did not advance, a foreign origin.
 */
import { SignIn } from '../../schemas/auth.js';
import { envelope } from '../../schemas/common.js';
import { PasskeyOptions } from '../../schemas/passkeys.js';
import { User } from '../../schemas/users.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { assert, attest, newAuthenticator, type Authenticator } from '../webauthn.js';
import { advanceClock, expectClockTimes, HOLDS_SESSION, PAST_UP_TO } from './sessions.js';
import { sessionSettingsForRun, settingsForRun, tenantSettings } from './settings.js';
import { EVENTS_LOOKED_AT, expectReadBack, searchListing } from './support.js';

interface Relying {
  rpId: string;
  origin: string;
}

/**
 * The tenant's RP ID and an origin it allows. A tenant that allows none gets one, its RP ID's
 * https origin, for the run (put back at the end): a ceremony needs an allowed origin.
 */
async function relyingParty(ctx: CheckContext): Promise<Relying> {
  await sessionSettingsForRun(ctx);
  await settingsForRun(ctx, 'webauthn-origin', ({ webauthn }) =>
    webauthn.origins.length === 0 ? { webauthn: { origins: [`https://${webauthn.rpId}`] } } : {},
  );
  const { webauthn } = await tenantSettings(ctx);
  return { rpId: webauthn.rpId, origin: webauthn.origins[0] ?? `https://${webauthn.rpId}` };
}

interface Registered extends Relying {
  authenticator: Authenticator;
  email: string;
  userId: string;
  userHandle: string;
  answer: Awaited<ReturnType<CheckContext['client']['passkeys']['registerVerify']>>;
}

/**
 * A new person registered with a passkey. Each check registers its own: an authenticator's
 * signature counter moves with every assertion, so checks running at once must not share one.
 */
async function registered(ctx: CheckContext): Promise<Registered> {
  const email = ctx.email('passkey');
  // The options are asked for while the tenant's settings are read (or set): the ceremony is judged at verify.
  const [rp, options] = await Promise.all([relyingParty(ctx), ctx.client.passkeys.registerOptions({ email, name: `Conformance ${ctx.runId}` })]);
  const { data } = expectShape(options, envelope(PasskeyOptions), 'D15: register-options answers challengeId and options');
  const authenticator = newAuthenticator();
  const answer = await ctx.client.passkeys.registerVerify({
    challengeId: data.challengeId,
    response: attest(authenticator, { challenge: String(data.options['challenge']), ...rp }),
  });
  expectStatus(answer, 200, 'part 5.5: passkey registration: challenge then verify');
  const signIn = expectShape(answer, envelope(SignIn), 'D4: register-verify answers { user, session }').data;
  ctx.keep(`user ${signIn.user.id} (${email})`);
  const handle = (data.options['user'] as { id?: unknown } | undefined)?.id;
  const userHandle = typeof handle === 'string' ? handle : '';
  return { ...rp, authenticator, email, userId: signIn.user.id, userHandle, answer };
}

async function loginOptions(ctx: CheckContext, email: string) {
  const options = await ctx.client.passkeys.loginOptions({ email });
  const { data } = expectShape(options, envelope(PasskeyOptions), 'D15: login-options answers challengeId and options');
  return { challengeId: data.challengeId, challenge: String(data.options['challenge']) };
}

export const passkeyChecks: Check[] = [
  {
    id: 'passkeys.options',
    tags: ['passkeys'],
    description: 'register-options and login-options answer a challengeId and WebAuthn options with a fresh challenge',
    spec: 'part 4 (Passkey/WebAuthn), part 5.5, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const register = await ctx.client.passkeys.registerOptions({ email: `conf-${ctx.runId}-passkey@conformance.example` });
      const a = expectShape(register, envelope(PasskeyOptions), 'D15: register-options answers challengeId and options').data;
      expect(
        typeof a.options['challenge'] === 'string' && typeof a.options['rp'] === 'object',
        'D15: creation options carry challenge and rp',
        JSON.stringify(a.options).slice(0, 200),
        register,
      );
      const login = await ctx.client.passkeys.loginOptions();
      const b = expectShape(login, envelope(PasskeyOptions), 'D15: login-options answers challengeId and options').data;
      expect(
        b.options['challenge'] !== a.options['challenge'] && b.challengeId !== a.challengeId,
        'part 5.5: every challenge is new',
        'the same challenge twice',
        login,
      );
    },
  },
  {
    id: 'passkeys.bad-response',
    tags: ['passkeys', 'validation'],
    description: 'register-verify and login-verify with a body that is no credential are 400',
    spec: 'part 4, part 7 (400), D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const path of ['/auth/passkey/register-verify', '/auth/passkey/login-verify']) {
        expectErrorCode(
          await ctx.client.request('POST', path, { body: { challengeId: 'chl_nope', response: {} } }),
          400,
          'validation_error',
          `D6: ${path} checks its body`,
        );
      }
    },
  },
  {
    id: 'passkeys.register',
    tags: ['passkeys', 'users'],
    description:
      'register-options then register-verify with a new credential signs a new person in, as a basic user with the e-mail that GET and the listing read; login-options allows the credential',
    spec: 'part 4 (Passkey/WebAuthn), part 5.5, D4, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['getPasskeyRegistrationOptions', 'verifyPasskeyRegistration'],
    run: async (ctx) => {
      const user = await registered(ctx);
      const { data } = expectShape(user.answer, envelope(SignIn), 'D4: { user, session }');
      expect(
        data.user.email === user.email && data.user.trustLevel === 'basic',
        'D15: the new user holds the e-mail',
        `${data.user.email} ${data.user.trustLevel}`,
        user.answer,
      );
      expectStatus(await ctx.client.mfa.status(data.session.token), 200, 'D4: the session token acts for the user');
      // Kept, not only answered: the user register-options named reads and lists as made, and its passkey is stored.
      const stored = { id: user.userId, email: user.email, name: `Conformance ${ctx.runId}`, trustLevel: 'basic' };
      const read = await ctx.client.users.get(user.userId);
      expectReadBack(expectShape(read, envelope(User), 'D15: GET /users/:id').data, stored, 'D15: GET /users/:id reads the user register-options named', read);
      const listed = await searchListing(ctx, '/users', user.email, user.userId);
      expectReadBack(listed.item, stored, 'D7/D15: the listing holds the user a passkey registration made', listed.result);
      const login = await ctx.client.passkeys.loginOptions({ email: user.email });
      const allowed = expectShape(login, envelope(PasskeyOptions), 'D15: login-options answers challengeId and options').data.options['allowCredentials'];
      const credentialId = user.authenticator.credentialId.toString('base64url');
      expect(
        Array.isArray(allowed) && allowed.some((c) => (c as { id?: unknown } | null)?.id === credentialId),
        'part 5.5: login-options for the e-mail allows the credential register-verify stored',
        `allowCredentials ${JSON.stringify(allowed)}`,
        login,
      );
      const events = await ctx.client.emulator.events({ type: 'user.created', limit: EVENTS_LOOKED_AT });
      expect(
        events.ok && events.body.data.some((e) => JSON.stringify(e['data']).includes(user.userId)),
        'D8: a passkey registration for a new person emits user.created',
        'no user.created',
        events,
      );
    },
  },
  {
    id: 'passkeys.login',
    tags: ['passkeys'],
    description: 'login-options then login-verify with the registered credential signs the same user in',
    spec: 'part 4 (Passkey/WebAuthn), part 5.5, D4',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['verifyPasskeyLogin'],
    run: async (ctx) => {
      const user = await registered(ctx);
      const { challengeId, challenge } = await loginOptions(ctx, user.email);
      const answer = await ctx.client.passkeys.loginVerify({
        challengeId,
        response: assert(user.authenticator, { challenge, rpId: user.rpId, origin: user.origin, userHandle: user.userHandle }),
      });
      const { data } = expectShape(answer, envelope(SignIn), 'part 5.5: passkey login: challenge then verify');
      expect(data.user.id === user.userId, 'D4: login signs in the user of the passkey', `${data.user.id} ≠ ${user.userId}`, answer);
      // The session the login answered is stored: its token acts for the user.
      const status = await ctx.client.mfa.status(data.session.token);
      expectStatus(status, 200, 'D4: the session a passkey login answered acts for the user');
    },
  },
  {
    id: 'passkeys.challenge-once',
    tags: ['passkeys'],
    description: 'a login challenge already used is 410 challenge_expired',
    spec: 'part 7 (410), D6',
    profile: 'emulator',
    creates: true,
    long: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await registered(ctx);
      const { challengeId, challenge } = await loginOptions(ctx, user.email);
      const first = await ctx.client.passkeys.loginVerify({
        challengeId,
        response: assert(user.authenticator, { challenge, rpId: user.rpId, origin: user.origin }),
      });
      expectStatus(first, 200, 'part 5.5: login');
      const again = await ctx.client.passkeys.loginVerify({
        challengeId,
        response: assert(user.authenticator, { challenge, rpId: user.rpId, origin: user.origin }),
      });
      expectErrorCode(again, 410, 'challenge_expired', 'D6: a challenge is used once');
    },
  },
  {
    id: 'passkeys.challenge-expiry',
    tags: ['passkeys', 'clock'],
    description: "a login challenge past its 5 minutes on the emulator clock is 410 challenge_expired, naming the emulator's and the real time",
    spec: 'part 7 (410), D6, D10',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: 'steps the clock past a challenge (5 minutes 1 second)' },
    run: async (ctx) => {
      const user = await registered(ctx);
      const { challengeId, challenge } = await loginOptions(ctx, user.email);
      const now = await advanceClock(ctx, '301s', PAST_UP_TO);
      const late = await ctx.client.passkeys.loginVerify({
        challengeId,
        response: assert(user.authenticator, { challenge, rpId: user.rpId, origin: user.origin }),
      });
      expectErrorCode(late, 410, 'challenge_expired', 'D6/D10: a challenge lasts 5 minutes on the emulator clock');
      expectClockTimes(late, now, 'D6/D10: a challenge the clock ended names the emulator and the real time in details');
    },
  },
  {
    id: 'passkeys.counter',
    tags: ['passkeys'],
    description: 'an assertion whose signature counter did not advance is refused (400 counter_not_advanced)',
    spec: 'D6 (WebAuthn signature counter)',
    profile: 'emulator',
    creates: true,
    long: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await registered(ctx);
      const first = await loginOptions(ctx, user.email);
      expectStatus(
        await ctx.client.passkeys.loginVerify({
          challengeId: first.challengeId,
          response: assert(user.authenticator, { ...first, rpId: user.rpId, origin: user.origin }),
        }),
        200,
        'part 5.5: login',
      );
      const second = await loginOptions(ctx, user.email);
      const replay = await ctx.client.passkeys.loginVerify({
        challengeId: second.challengeId,
        response: assert(user.authenticator, { ...second, rpId: user.rpId, origin: user.origin, keepCounter: true }),
      });
      expectErrorCode(replay, 400, 'counter_not_advanced', 'D6: a cloned authenticator (counter not advanced) is refused');
    },
  },
  {
    id: 'passkeys.origin',
    tags: ['passkeys'],
    description: 'an assertion made for another origin is 400 webauthn_origin_mismatch',
    spec: 'D6 (WebAuthn origin binding)',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await registered(ctx);
      const { challengeId, challenge } = await loginOptions(ctx, user.email);
      const answer = await ctx.client.passkeys.loginVerify({
        challengeId,
        response: assert(user.authenticator, { challenge, rpId: user.rpId, origin: 'https://phishing.conformance.example' }),
      });
      expectErrorCode(answer, 400, 'webauthn_origin_mismatch', 'D6: the origin must be one of the tenant');
    },
  },
];
