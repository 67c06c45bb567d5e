/**
 * The change log as the shared parts of a PostgreSQL store use it (shared.ts): what an entry
 * is about, and how to append one in the order of the writes and hear those of others.
 * postgres/store.ts implements it.
 */
import type pg from 'pg';

/** What a change-log entry is about. */
export type ChangeKind = 'records' | 'clock' | 'faults';

export interface ChangeLog {
  /** The pool for statements outside the write transactions. */
  readonly pool: pg.Pool;
  /** Appends an entry of `kind` in the order of the writes, with `statements` in the same transaction. */
  writeChange(kind: ChangeKind, body: unknown, statements?: Array<[string, unknown[]]>): Promise<void>;
  /** Answers the entries of `kind` other processes append. */
  handleChanges(kind: ChangeKind, handler: (body: unknown) => void): void;
}
