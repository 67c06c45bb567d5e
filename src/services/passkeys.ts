/**
 * Passkeys (WebAuthn) with @simplewebauthn/server, for the tenant's RP ID and allowed origins
 * (D3 settings). Options hand out a stored challenge that is single use and lives 5 minutes
 * on the emulator clock (reused or expired: 410 challenge_expired). Registration makes the
 * user (user.created) or adds a passkey to the user of that email (user.updated); both
 * verifications sign the user in.
 */
import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ApiError, conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { OptionsJson } from '../schemas/passkeys.js';
import type { PasskeyRecord, TenantRecord, UserRecord, WebauthnChallengeRecord } from '../store/records.js';
import { emitEvent } from './events.js';
import { openSession, sessionTtlMs, type SessionGrant } from './sessions.js';
import { findUserByEmail, insertUser, prepareUser } from './users.js';
import { expiryDetail } from './emulator-time.js';

type WebAuthnModules = [typeof import('@simplewebauthn/server'), typeof import('./webauthn-checks.js')];
/**
 * @simplewebauthn/server with its X.509/ASN.1 stack, and our checks built on its helpers:
 * a fifth of the bundle, loaded on the first passkey call rather than at start.
 */
let webauthn: Promise<WebAuthnModules> | undefined;
const loadWebAuthn = (): Promise<WebAuthnModules> => (webauthn ??= Promise.all([import('@simplewebauthn/server'), import('./webauthn-checks.js')]));

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** ES256 first (every authenticator has it), then EdDSA and RS256. */
export const SUPPORTED_ALGORITHMS = [-7, -8, -257];

type SignedIn = { user: UserRecord; session: SessionGrant };

/** The library's options object as the plain JSON it is (its optional fields dropped). */
function asJson(options: object): OptionsJson {
  return JSON.parse(JSON.stringify(options)) as OptionsJson;
}

function passkeysOf(rt: Runtime, user: UserRecord): PasskeyRecord[] {
  return rt.store.ofTenant('passkeys', user.tenantId).filter((passkey) => passkey.userId === user.id);
}

function descriptor(passkey: PasskeyRecord) {
  return { id: passkey.credentialId, transports: passkey.transports };
}

function challengeRecord(
  rt: Runtime,
  tenantId: string,
  fields: Pick<WebauthnChallengeRecord, 'kind' | 'challenge' | 'email' | 'name' | 'userId' | 'userHandle'>,
): WebauthnChallengeRecord {
  return { id: newId('chl'), tenantId, ...fields, expiresAt: new Date(rt.clock.nowMs() + CHALLENGE_TTL_MS).toISOString(), usedAt: null };
}

/** Creation options for a new user or for the existing user of that email. */
export async function registrationOptions(
  rt: Runtime,
  tenant: TenantRecord,
  input: { email: string; name?: string | undefined },
): Promise<{ challengeId: string; options: OptionsJson }> {
  const existing = findUserByEmail(rt, tenant.id, input.email);
  const existingPasskeys = existing ? passkeysOf(rt, existing) : [];
  // One user handle per user, so an authenticator replaces rather than duplicates its passkey.
  const [{ generateRegistrationOptions }, { isoBase64URL }] = await loadWebAuthn();
  const userHandle = existingPasskeys[0]?.userHandle ?? isoBase64URL.fromBuffer(randomBytes(32));
  const options = await generateRegistrationOptions({
    rpName: tenant.settings.webauthn.rpName,
    rpID: tenant.settings.webauthn.rpId,
    userName: existing?.email ?? input.email,
    userID: isoBase64URL.toBuffer(userHandle),
    userDisplayName: existing?.name ?? input.name ?? input.email,
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existingPasskeys.map(descriptor),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  const record = challengeRecord(rt, tenant.id, {
    kind: 'registration',
    challenge: options.challenge,
    email: input.email,
    name: input.name ?? null,
    userId: existing?.id ?? null,
    userHandle,
  });
  await rt.store.write(() => rt.store.insert('webauthnChallenges', record));
  return { challengeId: record.id, options: asJson(options) };
}

/** Request options: discoverable (no email) or for the passkeys of one user. */
export async function authenticationOptions(
  rt: Runtime,
  tenant: TenantRecord,
  email: string | undefined,
): Promise<{ challengeId: string; options: OptionsJson }> {
  let user: UserRecord | undefined;
  let allow: PasskeyRecord[] = [];
  if (email !== undefined) {
    user = findUserByEmail(rt, tenant.id, email);
    allow = user ? passkeysOf(rt, user) : [];
    if (!user || allow.length === 0) throw notFound(`passkey for ${email}`);
  }
  const [{ generateAuthenticationOptions }] = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: tenant.settings.webauthn.rpId,
    allowCredentials: allow.map(descriptor),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  const record = challengeRecord(rt, tenant.id, {
    kind: 'authentication',
    challenge: options.challenge,
    email: email ?? null,
    name: null,
    userId: user?.id ?? null,
    userHandle: null,
  });
  await rt.store.write(() => rt.store.insert('webauthnChallenges', record));
  return { challengeId: record.id, options: asJson(options) };
}

/** Takes a challenge for one verification: 404 unknown, 410 used or expired; it is used up now. */
async function takeChallenge(rt: Runtime, tenantId: string, id: string, kind: WebauthnChallengeRecord['kind']): Promise<WebauthnChallengeRecord> {
  return rt.store.write(() => {
    const challenge = rt.store.getOwned('webauthnChallenges', tenantId, id);
    if (!challenge || challenge.kind !== kind) throw notFound(`${kind} challenge`, id);
    if (challenge.usedAt !== null) throw new ApiError('challenge_expired', `Challenge ${id} was already used; ask for new options`);
    if (Date.parse(challenge.expiresAt) <= rt.clock.nowMs()) {
      throw new ApiError('challenge_expired', `Challenge ${id} has expired; ask for new options`, [
        expiryDetail(rt, `Challenge ${id}`, challenge.expiresAt, 'ask for new options (a challenge lasts 5 minutes)', 'challengeId'),
      ]);
    }
    return rt.store.update('webauthnChallenges', id, { usedAt: rt.clock.iso() });
  });
}

/** Verifies an attestation, stores the passkey and signs the user in (new or existing). */
export async function verifyRegistration(rt: Runtime, tenant: TenantRecord, challengeId: string, response: RegistrationResponseJSON): Promise<SignedIn> {
  const [{ verifyRegistrationResponse }, { checkBinding, isoBase64URL, libraryVerify, registrationAuthData }] = await loadWebAuthn();
  const challenge = await takeChallenge(rt, tenant.id, challengeId, 'registration');
  const { rpId, origins } = tenant.settings.webauthn;
  checkBinding(response.response.clientDataJSON, registrationAuthData(response.response.attestationObject), challenge, {
    rpId,
    origins,
    type: 'webauthn.create',
  });
  const { registrationInfo } = await libraryVerify(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      requireUserVerification: false,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    }),
  );
  const { credential } = registrationInfo!;
  if (rt.store.findByKey('passkeys', `${tenant.id}:${credential.id}`)) throw conflict('This passkey is already registered');
  const email = challenge.email!;
  const known = challenge.userId === null ? findUserByEmail(rt, tenant.id, email) : rt.store.getOwned('users', tenant.id, challenge.userId);
  const prepared = known ? undefined : await prepareUser(rt, tenant.id, { email, name: challenge.name, trustLevel: 'basic' });
  return rt.store.write(() => {
    if (rt.store.findByKey('passkeys', `${tenant.id}:${credential.id}`)) throw conflict('This passkey is already registered');
    let user: UserRecord;
    if (known) {
      user = rt.store.update('users', known.id, { updatedAt: rt.clock.iso() });
      emitEvent(rt, tenant.id, 'user.updated', { userId: user.id, changes: ['signInMethods'], added: 'passkey' });
    } else {
      user = insertUser(rt, prepared!);
    }
    rt.store.insert('passkeys', {
      id: newId('pky'),
      tenantId: tenant.id,
      userId: user.id,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      userHandle: challenge.userHandle!,
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: registrationInfo!.credentialDeviceType,
      backedUp: registrationInfo!.credentialBackedUp,
      createdAt: rt.clock.iso(),
      lastUsedAt: null,
    });
    return { user, session: openSession(rt, user, 'passkey', sessionTtlMs(tenant)).grant };
  });
}

/** Verifies an assertion against the stored passkey, advances its counter and signs in. */
export async function verifyAuthentication(rt: Runtime, tenant: TenantRecord, challengeId: string, response: AuthenticationResponseJSON): Promise<SignedIn> {
  const [{ verifyAuthenticationResponse }, { assertionAuthData, checkBinding, checkCounter, isoBase64URL, libraryVerify }] = await loadWebAuthn();
  const challenge = await takeChallenge(rt, tenant.id, challengeId, 'authentication');
  const { rpId, origins } = tenant.settings.webauthn;
  const authData = assertionAuthData(response.response.authenticatorData);
  checkBinding(response.response.clientDataJSON, authData, challenge, { rpId, origins, type: 'webauthn.get' });
  const passkey = rt.store.findByKey('passkeys', `${tenant.id}:${response.id}`);
  if (!passkey || (challenge.userId !== null && passkey.userId !== challenge.userId)) {
    throw new ApiError('unknown_credential', 'No passkey with this credential id is registered here', [
      { path: 'response.id', message: 'unknown credential', credentialId: response.id },
    ]);
  }
  checkCounter(authData, passkey.counter);
  const { authenticationInfo } = await libraryVerify(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: false,
    }),
  );
  return rt.store.write(() => {
    // Re-checked in the write: two logins racing with one assertion must not both pass.
    const current = rt.store.get('passkeys', passkey.id)!;
    checkCounter(authData, current.counter);
    rt.store.update('passkeys', passkey.id, { counter: authenticationInfo.newCounter, lastUsedAt: rt.clock.iso() });
    const user = rt.store.getOwned('users', tenant.id, passkey.userId);
    if (!user) throw new ApiError('unknown_credential', 'The user of this passkey no longer exists');
    return { user, session: openSession(rt, user, 'passkey', sessionTtlMs(tenant)).grant };
  });
}
