/**
 * Guest sessions (spec part 3 rule 4; D4, D8, D15): a guest is a user with trust level
 * `guest` and no email, signed in with a session that lives for the tenant's guestTtl. It can
 * be ended singly or in bulk, and converted into a `basic` user that keeps its id and data.
 */
import { ApiError, conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { GuestView } from '../schemas/guests.js';
import type { GuestRecord, TenantRecord, UserRecord } from '../store/records.js';
import { emitEvent } from './events.js';
import { endSession, openSession, sessionTtlMs, settingMs, type SessionGrant } from './sessions.js';
import { announceUser, findUserByEmail, insertUser, prepareUser } from './users.js';
import { expiryDetail } from './emulator-time.js';

const DEFAULT_GUEST_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a guest session of `tenant` lives: its guestTtl setting, else a day. */
export function guestTtlMs(tenant: TenantRecord): number {
  return settingMs(tenant.settings.guestTtl, DEFAULT_GUEST_TTL_MS);
}

/** Opens a guest session of `ttlMs` for a guest user and stores its guest record, as `id`. Call inside `rt.store.write()`. */
export function openGuestSession(rt: Runtime, user: UserRecord, id: string, ttlMs: number): { guest: GuestRecord; grant: SessionGrant } {
  const { record, grant } = openSession(rt, user, 'guest', ttlMs);
  const guest = rt.store.insert('guests', {
    id,
    tenantId: user.tenantId,
    userId: user.id,
    sessionId: record.id,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    endedAt: null,
    convertedAt: null,
  });
  return { guest, grant };
}

export type GuestStatus = GuestView['status'];

/** Where a guest session stands at the emulator's now. */
export function guestStatus(rt: Runtime, guest: GuestRecord): GuestStatus {
  if (guest.convertedAt !== null) return 'converted';
  if (guest.endedAt !== null) return 'ended';
  return Date.parse(guest.expiresAt) <= rt.clock.nowMs() ? 'expired' : 'active';
}

export function guestView(rt: Runtime, guest: GuestRecord): GuestView {
  return {
    id: guest.id,
    status: guestStatus(rt, guest),
    userId: guest.userId,
    createdAt: guest.createdAt,
    expiresAt: guest.expiresAt,
    endedAt: guest.endedAt,
    convertedAt: guest.convertedAt,
  };
}

function findGuest(rt: Runtime, tenantId: string, id: string): GuestRecord {
  const guest = rt.store.getOwned('guests', tenantId, id);
  if (!guest) throw notFound('guest session', id);
  return guest;
}

const GONE_MESSAGES: Record<Exclude<GuestStatus, 'active'>, string> = {
  converted: 'was converted into a user',
  ended: 'has ended',
  expired: 'has expired',
};

/**
 * 410 `session_expired` for a guest session that is no longer active (spec part 3 rule 3, D4):
 * converted, ended (DELETE, cleanup) or past its TTL. `details` names the status and when.
 */
function goneError(rt: Runtime, guest: GuestRecord, status: Exclude<GuestStatus, 'active'>): ApiError {
  const detail =
    status === 'converted'
      ? { status, userId: guest.userId, convertedAt: guest.convertedAt }
      : status === 'ended'
        ? { status, endedAt: guest.endedAt }
        : { status, expiresAt: guest.expiresAt };
  const message = `guest session ${guest.id} ${GONE_MESSAGES[status]}`;
  if (status === 'expired') {
    // Past its TTL on the emulator clock: the detail says where that clock is against real time.
    return new ApiError('session_expired', message, [
      { ...expiryDetail(rt, `Guest session ${guest.id}`, guest.expiresAt, 'create a new guest session'), status },
    ]);
  }
  return new ApiError('session_expired', message, [{ message, ...detail }]);
}

/** A guest session that is still active; 410 once converted, ended or expired. */
function liveGuest(rt: Runtime, tenantId: string, id: string): GuestRecord {
  const guest = findGuest(rt, tenantId, id);
  const status = guestStatus(rt, guest);
  if (status !== 'active') throw goneError(rt, guest, status);
  return guest;
}

/** Creates a guest user, its session and the guest record; emits `guest.created` (not `user.created`). */
export async function createGuest(rt: Runtime, tenant: TenantRecord): Promise<{ guest: GuestRecord; user: UserRecord; session: SessionGrant }> {
  const prepared = await prepareUser(rt, tenant.id, { email: null, name: null, trustLevel: 'guest' });
  const ttlMs = guestTtlMs(tenant);
  return rt.store.write(() => {
    const user = insertUser(rt, prepared);
    const { guest, grant } = openGuestSession(rt, user, newId('gst'), ttlMs);
    emitEvent(rt, tenant.id, 'guest.created', { guestId: guest.id, userId: user.id, expiresAt: guest.expiresAt });
    return { guest, user, session: grant };
  });
}

/** A guest session while it is active; 410 once converted, ended or expired. */
export function getGuest(rt: Runtime, tenantId: string, id: string): GuestRecord {
  return liveGuest(rt, tenantId, id);
}

/**
 * Turns the guest into a `basic` user with an email (same id, party and wallet), ends the
 * guest session and signs the user in; emits `guest.converted` then `user.created` (D8).
 */
export async function convertGuest(
  rt: Runtime,
  tenant: TenantRecord,
  id: string,
  input: { email: string; name?: string | undefined },
): Promise<{ guest: GuestRecord; user: UserRecord; session: SessionGrant }> {
  return rt.store.write(() => {
    const guest = liveGuest(rt, tenant.id, id);
    if (findUserByEmail(rt, tenant.id, input.email)) {
      throw conflict(`a user with email ${input.email} already exists`, [{ path: 'email', message: 'already taken in this tenant' }]);
    }
    const current = rt.store.getOwned('users', tenant.id, guest.userId);
    if (!current) throw notFound('user', guest.userId);
    const now = rt.clock.iso();
    const user = rt.store.update('users', current.id, {
      email: input.email,
      name: input.name ?? current.name,
      trustLevel: 'basic',
      updatedAt: now,
    });
    const converted = rt.store.update('guests', guest.id, { convertedAt: now, endedAt: now });
    endSession(rt, guest.sessionId);
    const { grant } = openSession(rt, user, 'convert', sessionTtlMs(tenant));
    emitEvent(rt, tenant.id, 'guest.converted', { guestId: guest.id, userId: user.id, email: user.email });
    announceUser(rt, user);
    return { guest: converted, user, session: grant };
  });
}

/** Ends a guest session at once (its token answers 410 from now on); emits `session.revoked`. */
export async function deleteGuest(rt: Runtime, tenantId: string, id: string): Promise<GuestRecord> {
  return rt.store.write(() => {
    const guest = liveGuest(rt, tenantId, id);
    const ended = rt.store.update('guests', guest.id, { endedAt: rt.clock.iso() });
    endSession(rt, guest.sessionId);
    emitEvent(rt, tenantId, 'session.revoked', { sessionId: guest.id, kind: 'guest', userId: guest.userId });
    return ended;
  });
}

/** Ends every active guest session created more than `olderThanMs` ago; answers how many. */
export async function cleanupGuests(rt: Runtime, tenantId: string, olderThanMs: number): Promise<number> {
  return rt.store.write(() => {
    const cutoff = rt.clock.nowMs() - olderThanMs;
    const now = rt.clock.iso();
    let count = 0;
    for (const guest of rt.store.ofTenant('guests', tenantId)) {
      if (guestStatus(rt, guest) !== 'active' || Date.parse(guest.createdAt) >= cutoff) continue;
      rt.store.update('guests', guest.id, { endedAt: now });
      endSession(rt, guest.sessionId);
      count += 1;
    }
    return count;
  });
}
