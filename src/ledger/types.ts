/**
 * The embedded ledger's shapes (D13): Canton-style commands (`create` a contract of a
 * template, `exercise` a choice on a contract), the events a transaction records, and the
 * outcome of one command. Commands and events are stored as they are (in transactions) and
 * answered as they are (by execute); the store defines them (store/ledger-records.ts), so that
 * it imports nothing of the ledger, and this file names them for the ledger's code.
 */
import type { LedgerEvent, LedgerRejection } from '../store/records.js';

export type {
  ArchivedEvent,
  CreateCommand,
  CreatedEvent,
  ExerciseCommand,
  ExercisedEvent,
  JsonObject,
  LedgerCommand,
  LedgerEvent,
  LedgerRejection,
} from '../store/records.js';

/** The outcome of one command: an update with its events, or a rejection. */
export type LedgerOutcome =
  { status: 'completed'; updateId: string; events: LedgerEvent[] } | { status: 'failed'; updateId: null; events: []; rejection: LedgerRejection };

/** The choice that archives a contract. */
export const ARCHIVE_CHOICE = 'Archive';
