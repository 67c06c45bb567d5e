/**
 * The records of the embedded ledger (D13): contracts, the transactions that delegated
 * sessions execute, and the delegated sessions themselves. A transaction keeps the ledger's
 * Canton-style command (`create` a contract of a template, `exercise` a choice on a contract)
 * and the events it recorded as they are, so their shapes are defined here, below the ledger
 * (src/ledger/types.ts names them for the ledger's code).
 */

/** A JSON object: a contract payload or a choice argument. */
export type JsonObject = Record<string, unknown>;

/** Creates one contract of a template; the acting party is its signatory. */
export interface CreateCommand {
  create: { templateId: string; payload: JsonObject };
}

/**
 * Exercises a choice on an active contract. `Archive` archives it; any other choice is recorded
 * with its argument and leaves it active, and creates the follow-up contracts of `creates`
 * (svc's way for a choice to have consequences without Daml code: the caller states them).
 */
export interface ExerciseCommand {
  exercise: { contractId: string; choice: string; argument?: JsonObject; creates?: Array<{ templateId: string; payload: JsonObject }> };
}

export type LedgerCommand = CreateCommand | ExerciseCommand;

export interface CreatedEvent {
  type: 'created';
  contractId: string;
  templateId: string;
  payload: JsonObject;
  signatories: string[];
}

export interface ExercisedEvent {
  type: 'exercised';
  contractId: string;
  templateId: string;
  choice: string;
  argument: JsonObject;
  /** Whether the choice archives the contract (only `Archive` does). */
  consuming: boolean;
}

export interface ArchivedEvent {
  type: 'archived';
  contractId: string;
  templateId: string;
}

export type LedgerEvent = CreatedEvent | ExercisedEvent | ArchivedEvent;

/** Why the ledger refused a command (Canton's error ids). */
export interface LedgerRejection {
  code: 'CONTRACT_NOT_FOUND' | 'CONTRACT_NOT_ACTIVE';
  message: string;
}

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
