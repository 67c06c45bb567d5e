/**
 * Delegated sessions (spec part 4; D4, D8, D13, D15): a user lets a delegate act for a
 * wallet's party on the embedded ledger, within permissions (templates and choices), an
 * optional command budget and a lifetime of at most 30 days on the emulator clock. The
 * delegate's token `dst_…` is answered once and stored as its SHA-256 hash.
 *
 * Outside the permissions, or with the budget spent: 403 permission_denied (the session stays
 * active and can still query). Revoked or past its expiry: 410 session_expired.
 */
import { timingSafeEqual } from 'node:crypto';
import { parseDuration } from '../duration.js';
import { ApiError, notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import { activeContracts, commandTemplates, contractView, submitCommand, type ContractView } from '../ledger/ledger.js';
import { allowsTemplate, deniedReason } from '../ledger/permissions.js';
import type { LedgerCommand } from '../ledger/types.js';
import type { Runtime } from '../runtime.js';
import type { CreateDelegatedSessionInput, DelegatedSessionView, LedgerCommandInput, QueryInput, TransactionView } from '../schemas/delegated-sessions.js';
import type { DelegatedSessionRecord, TransactionRecord, UserRecord } from '../store/records.js';
import { hashSecret } from './api-keys.js';
import { emitEvent } from './events.js';
import { paginate, type Page } from './pagination.js';
import { bearerToken } from './sessions.js';
import { ownedWallet } from './wallets.js';
import { expiryDetail } from './emulator-time.js';

export const DELEGATED_TOKEN_PREFIX = 'dst_';

export type DelegatedSessionStatus = DelegatedSessionView['status'];

export function delegatedSessionStatus(rt: Runtime, session: DelegatedSessionRecord): DelegatedSessionStatus {
  if (session.revokedAt !== null) return 'revoked';
  return Date.parse(session.expiresAt) <= rt.clock.nowMs() ? 'expired' : 'active';
}

export function delegatedSessionView(rt: Runtime, session: DelegatedSessionRecord): DelegatedSessionView {
  const { commands } = session.usage;
  return {
    id: session.id,
    status: delegatedSessionStatus(rt, session),
    walletId: session.walletId,
    userId: session.userId,
    partyId: session.partyId,
    permissions: session.permissions,
    maxCommands: session.maxCommands,
    usage: { ...session.usage, remaining: session.maxCommands === null ? null : Math.max(0, session.maxCommands - commands) },
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    revokedAt: session.revokedAt,
    lastUsedAt: session.lastUsedAt,
  };
}

export function transactionView(tx: TransactionRecord): TransactionView {
  return { id: tx.id, updateId: tx.updateId, status: tx.status, events: tx.events, rejection: tx.rejection, sessionId: tx.sessionId, createdAt: tx.createdAt };
}

/** Opens a delegated session for one of the user's wallets; the token exists only in the answer. */
export async function createDelegatedSession(
  rt: Runtime,
  user: UserRecord,
  input: CreateDelegatedSessionInput,
): Promise<{ session: DelegatedSessionRecord; token: string }> {
  const wallet = ownedWallet(rt, user, input.walletId);
  const lifetimeMs = parseDuration(input.expiresIn);
  if (lifetimeMs === undefined) throw new ApiError('validation_error', 'The request body is not valid', [{ path: 'expiresIn', message: 'not a duration' }]);
  const token = `${DELEGATED_TOKEN_PREFIX}${randomBase62(32)}`;
  const now = rt.clock.nowMs();
  const session: DelegatedSessionRecord = {
    id: newId('dsn'),
    tenantId: user.tenantId,
    userId: user.id,
    walletId: wallet.id,
    partyId: user.partyId,
    tokenHash: hashSecret(token),
    permissions: { templates: [...input.permissions.templates], choices: [...input.permissions.choices] },
    maxCommands: input.maxCommands ?? null,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + lifetimeMs).toISOString(),
    revokedAt: null,
    usage: { commands: 0, completed: 0, failed: 0, denied: 0, queries: 0 },
    lastUsedAt: null,
  };
  await rt.store.write(() => rt.store.insert('delegatedSessions', session));
  return { session, token };
}

/** One of the user's delegated sessions, whatever its status; another user's or tenant's is 404. */
export function getDelegatedSession(rt: Runtime, user: UserRecord, id: string): DelegatedSessionRecord {
  const session = rt.store.getOwned('delegatedSessions', user.tenantId, id);
  if (!session || session.userId !== user.id) throw notFound('delegated session', id);
  return session;
}

function assertLive(rt: Runtime, session: DelegatedSessionRecord): void {
  const status = delegatedSessionStatus(rt, session);
  if (status === 'revoked') throw new ApiError('session_expired', `Delegated session ${session.id} was revoked`);
  if (status === 'expired') {
    throw new ApiError('session_expired', `Delegated session ${session.id} expired at ${session.expiresAt}`, [
      expiryDetail(rt, `Delegated session ${session.id}`, session.expiresAt, 'create a new delegated session'),
    ]);
  }
}

/** Revokes an active session and emits `session.revoked`; a revoked or expired one is 410. */
export async function revokeDelegatedSession(rt: Runtime, user: UserRecord, id: string): Promise<DelegatedSessionRecord> {
  return rt.store.write(() => {
    const session = getDelegatedSession(rt, user, id);
    assertLive(rt, session);
    const revoked = rt.store.update('delegatedSessions', id, { revokedAt: rt.clock.iso() });
    emitEvent(rt, user.tenantId, 'session.revoked', { sessionId: id, kind: 'delegated', userId: user.id, walletId: session.walletId });
    return revoked;
  });
}

/**
 * The delegated session an `Authorization: Bearer dst_…` header acts for at path id `id`.
 * Missing → 401 missing_session; unknown, another tenant's, or another session's token → 401
 * invalid_session; revoked or expired → 410 session_expired.
 */
export function authenticateDelegate(rt: Runtime, tenantId: string, id: string, authorization: string | undefined): DelegatedSessionRecord {
  const token = bearerToken(authorization);
  if (token === undefined) throw new ApiError('missing_session', 'Send the delegated session token as Authorization: Bearer <token>');
  if (token === null) throw new ApiError('invalid_session', 'The Authorization header must be "Bearer <delegated session token>"');
  const hash = hashSecret(token);
  const session = rt.store.findByKey('delegatedSessions', `hash:${hash}`);
  const matches = session !== undefined && timingSafeEqual(Buffer.from(session.tokenHash, 'hex'), Buffer.from(hash, 'hex'));
  if (!session || !matches || session.tenantId !== tenantId) throw new ApiError('invalid_session', 'The delegated session token is not valid');
  if (session.id !== id) throw new ApiError('invalid_session', `The token belongs to another delegated session, not ${id}`);
  assertLive(rt, session);
  return session;
}

function toCommand(input: LedgerCommandInput): LedgerCommand {
  if (input.create) return { create: { templateId: input.create.templateId, payload: input.create.payload } };
  const exercise = input.exercise!;
  return {
    exercise: {
      contractId: exercise.contractId,
      choice: exercise.choice,
      argument: exercise.argument ?? {},
      ...(exercise.creates === undefined ? {} : { creates: exercise.creates.map((c) => ({ templateId: c.templateId, payload: c.payload })) }),
    },
  };
}

/** Counts one refused command (inside a write), before the caller answers 403. */
function countDenied(rt: Runtime, session: DelegatedSessionRecord): void {
  rt.store.update('delegatedSessions', session.id, { usage: { ...session.usage, denied: session.usage.denied + 1 }, lastUsedAt: rt.clock.iso() });
}

/**
 * Runs one command for the session's party and records the transaction; emits `tx.completed`,
 * or `tx.failed` when the ledger rejects it (still answered, with status failed).
 */
export async function executeCommand(rt: Runtime, tenantId: string, sessionId: string, input: LedgerCommandInput): Promise<TransactionRecord> {
  const command = toCommand(input);
  const outcome = await rt.store.write((): TransactionRecord | { denied: string } => {
    const session = rt.store.getOwned('delegatedSessions', tenantId, sessionId);
    if (!session) throw notFound('delegated session', sessionId);
    assertLive(rt, session);
    const { usage } = session;
    const spent = session.maxCommands !== null && usage.commands >= session.maxCommands;
    const denied = spent
      ? `the session has used all ${session.maxCommands} of its commands`
      : deniedReason(session.permissions, command, commandTemplates(rt, tenantId, session.partyId, command));
    if (denied !== null) {
      countDenied(rt, session);
      return { denied };
    }
    const result = submitCommand(rt, tenantId, session.partyId, command);
    const at = rt.clock.iso();
    const tx = rt.store.insert('transactions', {
      id: newId('tx'),
      tenantId,
      sessionId,
      userId: session.userId,
      walletId: session.walletId,
      partyId: session.partyId,
      command,
      status: result.status,
      updateId: result.updateId,
      events: result.events,
      rejection: result.status === 'failed' ? result.rejection : null,
      createdAt: at,
    });
    const completed = result.status === 'completed';
    rt.store.update('delegatedSessions', sessionId, {
      usage: { ...usage, commands: usage.commands + 1, completed: usage.completed + (completed ? 1 : 0), failed: usage.failed + (completed ? 0 : 1) },
      lastUsedAt: at,
    });
    const about = { transactionId: tx.id, sessionId, userId: tx.userId, walletId: tx.walletId, partyId: tx.partyId };
    if (result.status === 'completed') {
      emitEvent(rt, tenantId, 'tx.completed', { ...about, updateId: result.updateId, status: 'completed', events: result.events });
    } else {
      emitEvent(rt, tenantId, 'tx.failed', { ...about, status: 'failed', code: result.rejection.code, reason: result.rejection.message });
    }
    return tx;
  });
  if ('denied' in outcome) throw new ApiError('permission_denied', `The delegated session may not run this command: ${outcome.denied}`);
  return outcome;
}

/**
 * The active contracts the session's party can see, of the permitted templates only, newest
 * first; asking for a template outside the permissions is 403 permission_denied.
 */
export async function queryContracts(rt: Runtime, tenantId: string, sessionId: string, query: QueryInput): Promise<Page<ContractView>> {
  const outcome = await rt.store.write((): Page<ContractView> | { denied: string } => {
    const session = rt.store.getOwned('delegatedSessions', tenantId, sessionId);
    if (!session) throw notFound('delegated session', sessionId);
    assertLive(rt, session);
    if (query.templateId !== undefined && !allowsTemplate(session.permissions, query.templateId)) {
      countDenied(rt, session);
      return { denied: `template ${query.templateId} is not in the session's permissions` };
    }
    rt.store.update('delegatedSessions', sessionId, { usage: { ...session.usage, queries: session.usage.queries + 1 }, lastUsedAt: rt.clock.iso() });
    const contracts = activeContracts(rt, tenantId, session.partyId, query.templateId).filter((c) => allowsTemplate(session.permissions, c.templateId));
    return paginate(contracts, { page: query.page, page_size: query.pageSize }, contractView);
  });
  if ('denied' in outcome) throw new ApiError('permission_denied', `The delegated session may not query this: ${outcome.denied}`);
  return outcome;
}
