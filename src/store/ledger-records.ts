/**
 * The records of the embedded ledger (D13): contracts, the transactions that delegated
 * sessions execute, and the delegated sessions themselves.
 */
import type { JsonObject, LedgerCommand, LedgerEvent, LedgerRejection } from '../ledger/types.js';

/** A contract on the embedded ledger (D13); `id` is its contractId. */
export interface ContractRecord {
  id: string;
  tenantId: string;
  templateId: string;
  payload: JsonObject;
  signatories: string[];
  createdAt: string;
  /** The update that created it, and the one that archived it (null while active). */
  createdBy: string;
  archivedAt: string | null;
  archivedBy: string | null;
}

/** One command a delegated session executed, and what the ledger made of it. */
export interface TransactionRecord {
  id: string;
  tenantId: string;
  sessionId: string;
  userId: string;
  walletId: string;
  partyId: string;
  command: LedgerCommand;
  status: 'completed' | 'failed';
  /** The ledger update; null when the ledger rejected the command. */
  updateId: string | null;
  events: LedgerEvent[];
  rejection: LedgerRejection | null;
  createdAt: string;
}

/** A delegated session (spec part 4): a token that may run some commands for a wallet's party. */
export interface DelegatedSessionRecord {
  id: string;
  tenantId: string;
  userId: string;
  walletId: string;
  partyId: string;
  /** SHA-256 hex of the token `dst_…`. */
  tokenHash: string;
  permissions: { templates: string[]; choices: string[] };
  maxCommands: number | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  usage: { commands: number; completed: number; failed: number; denied: number; queries: number };
  lastUsedAt: string | null;
}
