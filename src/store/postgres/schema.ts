/**
 * The PostgreSQL store's tables and their migrations (D12). One table per
 * collection (`svc_users`, `svc_apps`, …): the record as jsonb, beside the columns the lists,
 * the search and the unique rules need (tenant + created_at, the unique key, a trigram index
 * on the users' email and name). Beside them: `svc_meta` (schema version, seal key, clock,
 * whether the store was seeded, the emulated DNS records), `svc_changes` (the change log every process follows),
 * `svc_buckets` (rate limits) and `svc_faults` (injected faults).
 *
 * Migrations run on start, one version after another, under an advisory lock; a database
 * written by a newer svc is refused, never changed.
 */
import { createHash } from 'node:crypto';
import { UNIQUE_KEYS } from '../collection.js';
import type { AnyRecord } from '../newest-first.js';
import { COLLECTION_NAMES, type CollectionName } from '../records.js';

/** The version of the tables' layout; a newer database is refused. */
export const PG_SCHEMA_VERSION = 2;

/** Advisory lock keys (the first of the two int4 keys is svc's). */
export const LOCKS = {
  /** Held from opening until seeded: migrations, the first seed. */
  start: [0x5356_4301, 1],
  /** Store-wide: shared by every write of some tenants, exclusive for a write of every tenant (a reset); see locks.ts. */
  write: [0x5356_4301, 2],
  /** Held from a change-log append to its commit, so entries commit in sequence order. */
  changes: [0x5356_4301, 3],
} as const;

/** `apiKeys` → `svc_api_keys`. */
export function tableOf(name: CollectionName): string {
  return `svc_${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
}

/** The columns kept beside the jsonb record, in the order `rowOf` answers them. */
export const ROW_COLUMNS = ['id', 'tenant_id', 'created_at', 'unique_key', 'next_attempt_at', 'data'] as const;

/**
 * The longest unique key the column keeps as it is, in UTF-8 bytes. An index row holds at most
 * about 2.7 kB, and a passkey's credential id (the key's tail) may be far longer: a longer key is
 * kept as its SHA-256, which is as unique. No key this long could be stored before, so no row
 * holds one as it is.
 */
const KEY_BYTES = 2_000;

/** The unique_key column of a key. */
export function keyColumn(key: string | null): string | null {
  if (key === null || key.length * 3 <= KEY_BYTES || Buffer.byteLength(key) <= KEY_BYTES) return key;
  return `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** A record as the row that holds it. */
export function rowOf(name: CollectionName, record: AnyRecord): [string, string | null, string | null, string | null, string | null, string] {
  const fields = record as unknown as Record<string, unknown>;
  const createdAt = fields['createdAt'] ?? fields['created_at'];
  const uniqueKey = keyColumn((UNIQUE_KEYS[name] as ((record: AnyRecord) => string | null) | undefined)?.(record) ?? null);
  const next = name === 'deliveries' ? (fields['nextAttemptAt'] as string | null) : null;
  return [record.id, record.tenantId ?? null, typeof createdAt === 'string' ? createdAt : null, uniqueKey, next, JSON.stringify(record)];
}

function collectionTable(name: CollectionName): string[] {
  const table = tableOf(name);
  const statements = [
    `CREATE TABLE ${table} (
       id text PRIMARY KEY,
       tenant_id text,
       created_at text,
       unique_key text,
       next_attempt_at text,
       data jsonb NOT NULL,
       CONSTRAINT ${table}_unique_key UNIQUE (unique_key) DEFERRABLE INITIALLY DEFERRED
     )`,
    // Lists are newest first then id, per tenant (D7).
    `CREATE INDEX ${table}_tenant_created ON ${table} (tenant_id, created_at DESC, id DESC)`,
  ];
  if (name === 'deliveries') {
    statements.push(
      `ALTER TABLE ${table} ADD COLUMN claimed_by text, ADD COLUMN claim_until timestamptz`,
      `CREATE INDEX ${table}_due ON ${table} (next_attempt_at) WHERE next_attempt_at IS NOT NULL`,
    );
  }
  // One custom domain per tenant, whichever process registers it.
  if (name === 'customDomains') statements.push(`CREATE UNIQUE INDEX ${table}_one_per_tenant ON ${table} (tenant_id)`);
  return statements;
}

/** Each migration takes the tables from version i to i + 1. */
export const MIGRATIONS: ReadonlyArray<readonly string[]> = [
  [
    ...COLLECTION_NAMES.flatMap(collectionTable),
    `CREATE TABLE svc_changes (
       seq bigserial PRIMARY KEY,
       origin text NOT NULL,
       kind text NOT NULL,
       body jsonb NOT NULL,
       at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX svc_changes_at ON svc_changes (at)`,
    `CREATE TABLE svc_buckets (id text PRIMARY KEY, tokens double precision NOT NULL, at timestamptz NOT NULL, allowed boolean NOT NULL)`,
    `CREATE TABLE svc_faults (
       seq bigserial PRIMARY KEY,
       id text NOT NULL UNIQUE,
       method text,
       path text NOT NULL,
       pattern text NOT NULL,
       status integer,
       delay text,
       delay_ms integer NOT NULL,
       count integer NOT NULL,
       remaining integer NOT NULL,
       created_at text NOT NULL
     )`,
  ],
  // A fault may name the tenant whose requests alone meet it (null: every request's).
  ['ALTER TABLE svc_faults ADD COLUMN tenant_id text'],
];

/**
 * The users' search (email or name contains the text, any case) as a trigram index; pg_trgm
 * ships with Debian's postgresql package and is a trusted extension, so the database's owner
 * may create it. Where it cannot be, a plain index on the lower-cased email serves the lookups.
 */
export const SEARCH_INDEX = {
  extension: 'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  trigram: `CREATE INDEX IF NOT EXISTS svc_users_search ON svc_users USING gin ((lower(coalesce(data->>'email', '') || ' ' || coalesce(data->>'name', ''))) gin_trgm_ops)`,
  fallback: `CREATE INDEX IF NOT EXISTS svc_users_email ON svc_users ((lower(data->>'email')))`,
};
