/**
 * The embedded ledger's shapes (DESIGN D13): Canton-style commands (`create` a contract of a
 * template, `exercise` a choice on a contract) and the events a transaction records. These
 * are stored as they are (in transactions) and answered as they are (by execute).
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

/** The outcome of one command: an update with its events, or a rejection. */
export type LedgerOutcome =
  { status: 'completed'; updateId: string; events: LedgerEvent[] } | { status: 'failed'; updateId: null; events: []; rejection: LedgerRejection };

/** The choice that archives a contract. */
export const ARCHIVE_CHOICE = 'Archive';
