/**
 * What a write transaction of postgres/store.ts leaves in the database: the rows of its
 * operations (a put upserts the record's row, the jsonb record beside its indexed columns; a
 * delete deletes it; a reset truncates every collection's table), and the error a failed
 * transaction answers. Its change-log entries and its commit are locks.ts's.
 */
import { ApiError } from '../../errors.js';
import type { AnyRecord } from '../newest-first.js';
import { COLLECTION_NAMES, type CollectionName } from '../records.js';
import type { StoreOp } from '../store.js';
import { findUnheldText } from '../text.js';
import { ROW_COLUMNS, rowOf, tableOf } from './schema.js';

/** Makes an SQL literal of a string (the connection's own quoting). */
export type Literal = (text: string) => string;

/**
 * The statements that write the rows the operations leave, in their order: runs of puts and
 * of deletes of one table become one statement. Values travel as literals, so the statements
 * go with the commit in one round trip (locks.ts): a transaction holds its locks for as few
 * round trips as it can.
 */
export function rowStatements(ops: StoreOp[], literal: Literal): string[] {
  const statements: string[] = [];
  let index = 0;
  while (index < ops.length) {
    const op = ops[index]!;
    if (op[0] === 'clear') {
      statements.push(`TRUNCATE ${COLLECTION_NAMES.map(tableOf).join(', ')}`);
      index += 1;
      continue;
    }
    const [kind, name] = op;
    let end = index;
    while (end < ops.length && ops[end]![0] === kind && ops[end]![1] === name) end += 1;
    const run = ops.slice(index, end);
    index = end;
    const table = tableOf(name as CollectionName);
    if (kind === 'del') {
      const ids = literal(JSON.stringify(run.map((entry) => entry[2] as string)));
      statements.push(`DELETE FROM ${table} WHERE id IN (SELECT jsonb_array_elements_text(${ids}::jsonb))`);
      continue;
    }
    // The last put of an id wins (one INSERT may not touch a row twice).
    const latest = new Map<string, AnyRecord>();
    for (const entry of run) latest.set((entry[2] as AnyRecord).id, entry[2] as AnyRecord);
    const rows = [...latest.values()].map((record) => {
      const [id, tenant_id, created_at, unique_key, next_attempt_at] = rowOf(name as CollectionName, record);
      return { id, tenant_id, created_at, unique_key, next_attempt_at, data: record };
    });
    const claimReset =
      name === 'deliveries'
        ? `, claimed_by = CASE WHEN ${table}.next_attempt_at IS DISTINCT FROM EXCLUDED.next_attempt_at THEN NULL ELSE ${table}.claimed_by END,
             claim_until = CASE WHEN ${table}.next_attempt_at IS DISTINCT FROM EXCLUDED.next_attempt_at THEN NULL ELSE ${table}.claim_until END`
        : '';
    statements.push(
      `INSERT INTO ${table} (${ROW_COLUMNS.join(', ')})
       SELECT ${ROW_COLUMNS.join(', ')} FROM jsonb_to_recordset(${literal(JSON.stringify(rows))}::jsonb)
         AS r(id text, tenant_id text, created_at text, unique_key text, next_attempt_at text, data jsonb)
       ON CONFLICT (id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, created_at = EXCLUDED.created_at,
         unique_key = EXCLUDED.unique_key, next_attempt_at = EXCLUDED.next_attempt_at, data = EXCLUDED.data${claimReset}`,
    );
  }
  return statements;
}

/** A statement with `$1`, `$2`, … replaced by its values as literals (strings, numbers, booleans or null; anything else as JSON). */
export function inlined(sql: string, values: unknown[], literal: Literal): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return literal(typeof value === 'string' ? value : JSON.stringify(value));
  });
}

/**
 * The error a failed write answers: 409 for a unique rule another process won; 400 naming the
 * field when the database refused a value of the write's records it cannot hold (`ops`, the
 * write's own; the request's checks refuse such text first, so this is for text that came
 * another way); else 503.
 */
export function failureOf(error: unknown, ops: StoreOp[] = []): ApiError {
  if (error instanceof ApiError) return error;
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (code === '23505') {
    return new ApiError('conflict', `another request took the same unique value first (${constraint ?? 'unique rule'}); read it back and try again`);
  }
  // SQLSTATE class 22: a data exception (a value jsonb or text refuses).
  if (code?.startsWith('22')) {
    const found = ops.flatMap((op) => (op[0] === 'put' ? findUnheldText(op[2]) : []));
    if (found.length > 0) {
      return new ApiError('validation_error', `The database cannot keep a value of this write: ${(error as Error).message}`, found);
    }
  }
  return new ApiError('store_unavailable', `the database cannot be written: ${(error as Error).message}`);
}

/** `work` on the pool, its failure answered as 503 store_unavailable (a rate-limit take, a fault count, a claim), never a 500. */
export function orUnavailable<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw error instanceof ApiError ? error : new ApiError('store_unavailable', `the database cannot be reached: ${(error as Error).message}`);
  });
}
