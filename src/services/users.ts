/**
 * Users (D7, D13, D15): email unique per tenant (case-insensitive); every user gets
 * its party and pre-generated wallet when created, so `user.created` can carry `partyId`.
 */
import { conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { createPartyKeys } from '../crypto/party.js';
import type { Runtime } from '../runtime.js';
import type { UserView } from '../schemas/users.js';
import type { UserRecord, WalletRecord } from '../store/records.js';
import type { TrustLevel } from '../schemas/words.js';
import { emitEvent } from './events.js';
import { sealShares } from './wallets.js';
import { paginateMatching, type Page, type PageRequest } from './pagination.js';
import { searchUsers } from './user-search.js';

export interface NewUser {
  email: string | null;
  name: string | null;
  trustLevel: TrustLevel;
  createdAt?: string;
}

/** A user and its wallet, made (keys and all) but not yet stored. */
export interface PreparedUser {
  user: UserRecord;
  wallet: WalletRecord;
}

export function userView(user: UserRecord): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    trustLevel: user.trustLevel,
    partyId: user.partyId,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export function emailKey(tenantId: string, email: string): string {
  return `${tenantId}:${email.toLowerCase()}`;
}

export function findUserByEmail(rt: Runtime, tenantId: string, email: string): UserRecord | undefined {
  return rt.store.findByKey('users', emailKey(tenantId, email));
}

function assertEmailFree(rt: Runtime, tenantId: string, email: string): void {
  if (findUserByEmail(rt, tenantId, email)) {
    throw conflict(`a user with email ${email} already exists`, [{ path: 'email', message: 'already taken in this tenant' }]);
  }
}

/** Makes the key pair, party id and sealed shares of a new user (the slow, async part). */
export async function prepareUser(rt: Runtime, tenantId: string, input: NewUser): Promise<PreparedUser> {
  const userId = newId('usr');
  const hint = input.email?.split('@')[0] ?? input.name ?? userId;
  const keys = await createPartyKeys(hint);
  const createdAt = input.createdAt ?? rt.clock.iso();
  const walletId = newId('wal');
  return {
    user: {
      id: userId,
      tenantId,
      email: input.email,
      name: input.name,
      trustLevel: input.trustLevel,
      partyId: keys.partyId,
      walletId,
      createdAt,
      updatedAt: createdAt,
    },
    wallet: {
      id: walletId,
      tenantId,
      userId,
      publicKey: keys.publicKey.toString('hex'),
      shares: sealShares(rt.sealer, keys.shares),
      claimedAt: null,
      createdAt,
    },
  };
}

/**
 * Stores a prepared user (inside `rt.store.write()`), refusing a taken email, and records
 * `user.created` unless the user is a guest (D8).
 */
export function insertUser(rt: Runtime, prepared: PreparedUser): UserRecord {
  const { user, wallet } = prepared;
  if (user.email !== null) assertEmailFree(rt, user.tenantId, user.email);
  rt.store.insert('users', user);
  rt.store.insert('wallets', wallet);
  if (user.trustLevel !== 'guest') announceUser(rt, user);
  return user;
}

/**
 * Records `user.created` with the data the spec fixes (part 2), where `email` is a string. A
 * user without an e-mail (a Telegram sign-up) is not announced: the spec's payload has no place
 * for a missing address, and receivers check it as one (analytics counts such a user at its createdAt).
 */
export function announceUser(rt: Runtime, user: UserRecord): void {
  if (user.email === null) return;
  emitEvent(rt, user.tenantId, 'user.created', { userId: user.id, email: user.email, partyId: user.partyId });
}

export async function createUser(rt: Runtime, tenantId: string, input: NewUser): Promise<UserRecord> {
  if (input.email !== null) assertEmailFree(rt, tenantId, input.email);
  const prepared = await prepareUser(rt, tenantId, input);
  return rt.store.write(() => insertUser(rt, prepared));
}

export function getUser(rt: Runtime, tenantId: string, id: string): UserRecord {
  const user = rt.store.getOwned('users', tenantId, id);
  if (!user) throw notFound('user', id);
  return user;
}

export interface UserQuery extends PageRequest {
  trust_level?: TrustLevel | undefined;
  search?: string | undefined;
}

export function listUsers(rt: Runtime, tenantId: string, query: UserQuery): Page<UserView> {
  const page = listUserRecords(rt, tenantId, query);
  return { ...page, data: page.data.map(userView) };
}

/** The page of user records a users list answers (views still to be made). */
export function listUserRecords(rt: Runtime, tenantId: string, query: UserQuery): Page<UserRecord> {
  const level = query.trust_level;
  const ordered = query.search ? searchUsers(rt, tenantId, query.search) : rt.store.newestFirst('users', tenantId);
  const matches = level === undefined ? null : (user: UserRecord) => user.trustLevel === level;
  return paginateMatching(ordered, matches, query, (user) => user);
}
