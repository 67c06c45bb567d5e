/**
 * What a write transaction of the PostgreSQL store locks. Tenants never share a
 * record, so writes of different tenants must not wait for each other: a transaction takes one
 * advisory lock per tenant it touches (in one order everywhere, so two never deadlock), beside
 * the shared side of one store-wide lock; a write that empties the store (a reset) takes that
 * one alone, exclusively. What is unique across tenants (API key hashes, custom domains) is the
 * tables' constraints' business. The change log is appended to under a lock of its own, held
 * only from the append to the commit, so entries are committed in the order of their sequence
 * numbers and a process that reads past one has seen every one before it.
 */
import type pg from 'pg';
import type { ChangeKind } from './changes.js';
import { LOCKS } from './schema.js';

/** The first key of every tenant's advisory lock; the second is the tenant id's hash. */
const TENANT_LOCK = 0x5356_4302;

/** How many transactions one process runs at once for different tenants (each its own connection). */
export const WRITE_LANES = 4;

/** A write's tenants, or null when it touches every tenant (a reset). */
export type Scope = ReadonlySet<string> | null;

/** A tenant id as a signed 32-bit key (FNV-1a): the same in every process. */
export function tenantKey(tenantId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tenantId.length; i++) hash = Math.imul(hash ^ tenantId.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** The lane of this process that runs writes of `scope`: one per tenant hash, lane 0 for writes of no tenant or of all. */
export function laneOf(scope: Scope): number {
  if (scope === null || scope.size === 0) return 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (const tenant of scope) lowest = Math.min(lowest, tenantKey(tenant));
  return Math.abs(lowest) % WRITE_LANES;
}

/** The union of several writes' scopes. */
export function unionOf(scopes: Scope[]): Scope {
  const tenants = new Set<string>();
  for (const scope of scopes) {
    if (scope === null) return null;
    for (const tenant of scope) tenants.add(tenant);
  }
  return tenants;
}

/** Whether everything `reach` touched lies inside `scope`. */
export function within(reach: Scope, scope: Scope): boolean {
  if (scope === null) return true;
  if (reach === null) return false;
  for (const tenant of reach) if (!scope.has(tenant)) return false;
  return true;
}

/** One SELECT that takes `scope`'s locks, left to right: the store-wide lock (shared, or exclusive for every tenant), then each tenant's in key order. */
export function lockStatement(scope: Scope): string {
  if (scope === null) return `SELECT pg_advisory_xact_lock(${LOCKS.write.join(', ')})`;
  const keys = [...new Set([...scope].map(tenantKey))].sort((a, b) => a - b);
  return `SELECT ${[`pg_advisory_xact_lock_shared(${LOCKS.write.join(', ')})`, ...keys.map((key) => `pg_advisory_xact_lock(${TENANT_LOCK}, ${key})`)].join(', ')}`;
}

/**
 * The change-log rows of `entries`, as the VALUES of their INSERT. Throws when an entry cannot
 * be written as JSON (a record nested deeper than the stack): before anything is sent.
 */
export function changeValues(client: pg.Client, origin: string, entries: Array<[ChangeKind, unknown]>): string {
  return entries
    .map(([kind, body]) => `(${client.escapeLiteral(origin)}, ${client.escapeLiteral(kind)}, ${client.escapeLiteral(JSON.stringify(body))}::jsonb)`)
    .join(', ');
}

/**
 * Runs `statements` (the rows), appends the change-log entries (`values`, from changeValues),
 * announces them and commits, in one round trip, the append under the change log's lock;
 * answers the entries' sequence numbers.
 */
export async function appendAndCommit(client: pg.Client, values: string, statements: string[]): Promise<number[]> {
  const results = (await client.query(
    [
      ...statements,
      `SELECT pg_advisory_xact_lock(${LOCKS.changes.join(', ')})`,
      `WITH appended AS (INSERT INTO svc_changes (origin, kind, body) VALUES ${values} RETURNING seq)
       SELECT array_agg(seq ORDER BY seq) AS seqs, pg_notify('svc_changes', max(seq)::text) FROM appended`,
      'COMMIT',
    ].join(';\n'),
  )) as unknown as Array<pg.QueryResult<{ seqs: string[] }>>;
  return results[results.length - 2]!.rows[0]!.seqs.map(Number);
}
