/**
 * MFA (D5): TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, ±1 step) on the emulator clock,
 * with otpauth; 10 one-time recovery codes stored hashed; challenges of 5 minutes; a verified
 * code makes the session MFA-fresh for the tenant's mfaFreshness; 5 wrong codes in a row
 * lock challenge and verify for 15 minutes (429 mfa_locked with Retry-After).
 */
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { ApiError, conflict } from '../errors.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { emulatorTimeDetail, expiryDetail } from './emulator-time.js';
import type { MfaChallengeRecord, MfaRecord, TenantRecord, UserRecord, UserSessionRecord } from '../store/records.js';
import { hashSecret } from './api-keys.js';
import { emitEvent } from './events.js';
import { markMfaFresh, settingMs } from './sessions.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that still count (D5: ±1). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MS = 15 * 60 * 1000;
const DEFAULT_FRESHNESS_MS = 10 * 60 * 1000;
/** Recovery codes avoid look-alike characters (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totpFor(tenant: TenantRecord, user: UserRecord, secret: Secret): TOTP {
  return new TOTP({
    issuer: tenant.name,
    label: user.email ?? user.id,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret,
  });
}

function factorOf(rt: Runtime, user: UserRecord): MfaRecord | undefined {
  return rt.store.getOwned('mfa', user.tenantId, user.id);
}

/** Whether the user has MFA turned on (the guard of D5 applies only then). */
export function isMfaEnabled(rt: Runtime, user: UserRecord): boolean {
  return factorOf(rt, user)?.status === 'enabled';
}

/** Whether the session's last MFA verification is still fresh at the emulator's now. */
export function isMfaFresh(rt: Runtime, session: UserSessionRecord): boolean {
  return session.mfaFreshUntil !== null && Date.parse(session.mfaFreshUntil) > rt.clock.nowMs();
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Recovery codes are compared without case, spaces or dashes. */
function recoveryHash(code: string): string {
  return hashSecret(code.toLowerCase().replace(/[\s-]/g, ''));
}

/** Starts (or restarts) setup: a new secret, its otpauth:// URI and a QR code of it. */
export async function setupMfa(rt: Runtime, tenant: TenantRecord, user: UserRecord): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
  if (isMfaEnabled(rt, user)) throw conflict('MFA is already enabled; disable it first to set it up again');
  const secret = new Secret({ size: 20 });
  const otpauthUrl = totpFor(tenant, user, secret).toString();
  // qrcode (and its PNG encoder) is loaded on the first enrolment rather than at start.
  const { default: QRCode } = await import('qrcode');
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2 });
  const record: MfaRecord = {
    id: user.id,
    tenantId: user.tenantId,
    secret: rt.sealer.seal(Buffer.from(secret.bytes)),
    status: 'pending',
    recoveryCodes: [],
    failedAttempts: 0,
    lockedUntil: null,
    createdAt: rt.clock.iso(),
    enabledAt: null,
  };
  await rt.store.write(() => {
    if (factorOf(rt, user)) rt.store.remove('mfa', user.id);
    rt.store.insert('mfa', record);
  });
  return { secret: secret.base32, otpauthUrl, qrCode };
}

/** Where a wrong code is answered: the emulator's now, which the code must be made for. */
function totpTimeDetail(rt: Runtime) {
  const at = new Date(rt.clock.nowMs())
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  return emulatorTimeDetail(rt, 'code', 'The TOTP code', `make the code for that time, e.g. oathtool --totp -b --now "${at}" <secret>`);
}

/** Whether a TOTP code is right at the emulator's now (±1 step). */
function totpMatches(rt: Runtime, tenant: TenantRecord, user: UserRecord, factor: MfaRecord, code: string): boolean {
  const secret = new Secret({ buffer: new Uint8Array(rt.sealer.open(factor.secret)).buffer });
  const delta = totpFor(tenant, user, secret).validate({ token: code.replace(/\s/g, ''), timestamp: rt.clock.nowMs(), window: TOTP_WINDOW });
  return delta !== null;
}

/** Completes setup with a first code: enables MFA, emits `mfa.enabled`, answers the recovery codes once. */
export async function verifyMfaSetup(rt: Runtime, tenant: TenantRecord, user: UserRecord, code: string): Promise<string[]> {
  const factor = factorOf(rt, user);
  if (!factor) throw conflict('MFA setup has not been started; call POST /mfa/setup first');
  if (factor.status === 'enabled') throw conflict('MFA is already enabled');
  if (!totpMatches(rt, tenant, user, factor, code))
    throw new ApiError('invalid_code', "The code is not right; check the authenticator app's clock", [totpTimeDetail(rt)]);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await rt.store.write(() => {
    rt.store.update('mfa', factor.id, {
      status: 'enabled',
      enabledAt: rt.clock.iso(),
      recoveryCodes: codes.map((plain) => ({ hash: recoveryHash(plain), usedAt: null })),
    });
    emitEvent(rt, user.tenantId, 'mfa.enabled', { userId: user.id, method: 'totp' });
  });
  return codes;
}

/** The enabled factor, or 409 when MFA is off; 429 mfa_locked while locked. */
function unlockedFactor(rt: Runtime, user: UserRecord): MfaRecord {
  const factor = factorOf(rt, user);
  if (!factor || factor.status !== 'enabled') throw conflict('MFA is not enabled for this user');
  if (factor.lockedUntil !== null) {
    const remainingMs = Date.parse(factor.lockedUntil) - rt.clock.nowMs();
    if (remainingMs > 0) {
      const seconds = Math.ceil(remainingMs / 1000);
      throw new ApiError('mfa_locked', `Too many wrong codes; MFA is locked for ${seconds} more seconds`, [], { 'Retry-After': String(seconds) });
    }
  }
  return factor;
}

/** Opens a challenge (5 minutes) for this session. */
export async function openMfaChallenge(rt: Runtime, user: UserRecord, session: UserSessionRecord): Promise<MfaChallengeRecord> {
  unlockedFactor(rt, user);
  const record: MfaChallengeRecord = {
    id: newId('mfc'),
    tenantId: user.tenantId,
    userId: user.id,
    sessionId: session.id,
    expiresAt: new Date(rt.clock.nowMs() + CHALLENGE_TTL_MS).toISOString(),
    usedAt: null,
  };
  return rt.store.write(() => rt.store.insert('mfaChallenges', record));
}

/**
 * Answers a challenge with a TOTP code or an unused recovery code: the session becomes
 * MFA-fresh. A wrong code is 400 invalid_code and counts towards the lock.
 */
export async function verifyMfa(
  rt: Runtime,
  tenant: TenantRecord,
  user: UserRecord,
  session: UserSessionRecord,
  challengeId: string,
  code: string,
): Promise<string> {
  const factor = unlockedFactor(rt, user);
  const challenge = rt.store.getOwned('mfaChallenges', user.tenantId, challengeId);
  if (!challenge || challenge.userId !== user.id || challenge.sessionId !== session.id) {
    throw new ApiError('not_found', `MFA challenge ${challengeId} not found for this session`);
  }
  if (challenge.usedAt !== null) throw new ApiError('challenge_expired', 'This challenge was already used; request a new one');
  if (Date.parse(challenge.expiresAt) <= rt.clock.nowMs()) {
    throw new ApiError('challenge_expired', 'This challenge has expired; request a new one', [
      expiryDetail(rt, `MFA challenge ${challenge.id}`, challenge.expiresAt, 'request a new challenge (POST /mfa/challenge)', 'challengeId'),
    ]);
  }
  const totpOk = /^\d{6}$/.test(code.replace(/\s/g, '')) && totpMatches(rt, tenant, user, factor, code);
  const recoveryIndex = totpOk ? -1 : factor.recoveryCodes.findIndex((entry) => entry.usedAt === null && entry.hash === recoveryHash(code));
  const now = rt.clock.iso();
  if (!totpOk && recoveryIndex === -1) {
    const failed = factor.failedAttempts + 1;
    const locks = failed >= MAX_FAILED_ATTEMPTS;
    await rt.store.write(() =>
      rt.store.update('mfa', factor.id, {
        failedAttempts: locks ? 0 : failed,
        lockedUntil: locks ? new Date(rt.clock.nowMs() + LOCK_MS).toISOString() : factor.lockedUntil,
      }),
    );
    const left = MAX_FAILED_ATTEMPTS - failed;
    throw new ApiError(
      'invalid_code',
      locks ? 'The code is not right; MFA is now locked for 15 minutes' : `The code is not right; ${left} more wrong codes lock MFA`,
      [totpTimeDetail(rt)],
    );
  }
  const freshUntil = new Date(rt.clock.nowMs() + settingMs(tenant.settings.mfaFreshness, DEFAULT_FRESHNESS_MS)).toISOString();
  await rt.store.write(() => {
    const recoveryCodes = factor.recoveryCodes.map((entry, i) => (i === recoveryIndex ? { ...entry, usedAt: now } : entry));
    rt.store.update('mfa', factor.id, { failedAttempts: 0, lockedUntil: null, recoveryCodes });
    rt.store.update('mfaChallenges', challenge.id, { usedAt: now });
    markMfaFresh(rt, session.id, freshUntil);
  });
  return freshUntil;
}

/** What GET /mfa/status shows. */
export function mfaStatus(rt: Runtime, user: UserRecord, session: UserSessionRecord) {
  const factor = factorOf(rt, user);
  const lockedUntil = factor?.lockedUntil ?? null;
  return {
    enabled: factor?.status === 'enabled',
    freshUntil: isMfaFresh(rt, session) ? session.mfaFreshUntil : null,
    locked: lockedUntil !== null && Date.parse(lockedUntil) > rt.clock.nowMs(),
    recoveryCodesRemaining: factor?.status === 'enabled' ? factor.recoveryCodes.filter((entry) => entry.usedAt === null).length : 0,
  };
}

/** Turns MFA off (the route guards it with requireFreshMfa); emits `mfa.disabled`. */
export async function disableMfa(rt: Runtime, user: UserRecord): Promise<void> {
  const factor = factorOf(rt, user);
  if (!factor || factor.status !== 'enabled') throw conflict('MFA is not enabled for this user');
  await rt.store.write(() => {
    rt.store.remove('mfa', factor.id);
    for (const session of rt.store.ofTenant('sessions', user.tenantId)) {
      if (session.userId === user.id && session.mfaFreshUntil !== null) rt.store.update('sessions', session.id, { mfaFreshUntil: null });
    }
    emitEvent(rt, user.tenantId, 'mfa.disabled', { userId: user.id });
  });
}
