/**
 * User sessions (D4): every sign-in opens one session record with an opaque bearer
 * token `st_…`, stored only as its SHA-256 hash; TTL from the tenant's settings and expiry
 * on the emulator clock. Unknown token → 401 invalid_session; expired or ended → 410.
 */
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { parseDuration } from '../duration.js';
import type { TenantRecord, UserRecord, UserSessionRecord } from '../store/records.js';
import type { UserView } from '../schemas/users.js';
import { hashSecret } from './api-keys.js';
import { userView } from './users.js';
import { expiryDetail } from './emulator-time.js';

export const SESSION_TOKEN_PREFIX = 'st_';
const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

export type SignInMethod = UserSessionRecord['method'];

/** The session as sign-in answers show it: the token (only here) and its expiry. */
export interface SessionGrant {
  token: string;
  expiresAt: string;
}

/** A session just opened: its record and the token, which exists nowhere else. */
export interface OpenedSession {
  record: UserSessionRecord;
  grant: SessionGrant;
}

/** Milliseconds of a tenant duration setting, falling back when it is unreadable. */
export function settingMs(text: string, fallbackMs: number): number {
  const ms = parseDuration(text);
  return ms === undefined || ms <= 0 ? fallbackMs : ms;
}

/** The tenant's session TTL (D4: default 24 h). */
export function sessionTtlMs(tenant: TenantRecord): number {
  return settingMs(tenant.settings.sessionTtl, DEFAULT_TTL_MS);
}

/**
 * Opens a session for a user (call inside `rt.store.write()`). One record per sign-in, so
 * that sign-ins can be counted by method and day.
 */
export function openSession(rt: Runtime, user: UserRecord, method: SignInMethod, ttlMs: number): OpenedSession {
  const token = `${SESSION_TOKEN_PREFIX}${randomBase62(32)}`;
  const now = rt.clock.nowMs();
  const record: UserSessionRecord = {
    id: newId('ses'),
    tenantId: user.tenantId,
    userId: user.id,
    method,
    tokenHash: hashSecret(token),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + ttlMs).toISOString(),
    endedAt: null,
    mfaFreshUntil: null,
  };
  rt.store.insert('sessions', record);
  return { record, grant: { token, expiresAt: record.expiresAt } };
}

/** Whether a session can still be used at the emulator's now. */
export function isSessionLive(rt: Runtime, session: UserSessionRecord): boolean {
  return session.endedAt === null && Date.parse(session.expiresAt) > rt.clock.nowMs();
}

/** Ends a session (call inside `rt.store.write()`); ending an ended one changes nothing. */
export function endSession(rt: Runtime, sessionId: string): void {
  const session = rt.store.get('sessions', sessionId);
  if (session && session.endedAt === null) rt.store.update('sessions', sessionId, { endedAt: rt.clock.iso() });
}

/** The token of an `Authorization: Bearer …` header: undefined when absent, null when malformed. */
export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * The live session and user an `Authorization` header acts for, in this tenant (D4). Missing →
 * 401 missing_session; malformed, unknown or another tenant's → 401 invalid_session; expired
 * or ended → 410 session_expired.
 */
export function authenticateSession(rt: Runtime, tenantId: string, authorization: string | undefined): { session: UserSessionRecord; user: UserRecord } {
  const token = bearerToken(authorization);
  if (token === undefined) {
    throw new ApiError('missing_session', 'Send the user session token as Authorization: Bearer <token>');
  }
  if (token === null) throw new ApiError('invalid_session', 'The Authorization header must be "Bearer <session token>"');
  const hash = hashSecret(token);
  const session = rt.store.findByKey('sessions', `hash:${hash}`);
  // The map lookup finds the candidate; the constant-time compare is the check itself.
  const matches = session !== undefined && timingSafeEqual(Buffer.from(session.tokenHash, 'hex'), Buffer.from(hash, 'hex'));
  if (!session || !matches || session.tenantId !== tenantId) {
    throw new ApiError('invalid_session', 'The session token is not valid');
  }
  if (!isSessionLive(rt, session)) {
    if (session.endedAt !== null)
      throw new ApiError('session_expired', 'The session has ended; sign in again', [{ message: `ended at ${session.endedAt}`, endedAt: session.endedAt }]);
    throw new ApiError('session_expired', 'The session has expired; sign in again', [
      expiryDetail(rt, 'The session', session.expiresAt, 'sign in again (the tenant setting sessionTtl sets how long a session lasts)', 'authorization'),
    ]);
  }
  const user = rt.store.getOwned('users', tenantId, session.userId);
  if (!user) throw new ApiError('invalid_session', 'The session belongs to a user that no longer exists');
  return { session, user };
}

/** Marks a session MFA-fresh until `until` (call inside `rt.store.write()`). */
export function markMfaFresh(rt: Runtime, sessionId: string, until: string): UserSessionRecord {
  return rt.store.update('sessions', sessionId, { mfaFreshUntil: until });
}

/** The answer of every sign-in flow (D4): the user and the new session. */
export function signInView(user: UserRecord, grant: SessionGrant): { user: UserView; session: SessionGrant } {
  return { user: userView(user), session: grant };
}
