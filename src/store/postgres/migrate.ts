/**
 * Opening a PostgreSQL store's database: migrations on start, one version after another, each
 * in a transaction; a database written by a newer svc is refused and left as it is.
 */
import type pg from 'pg';
import { StoreOpenError } from '../document.js';
import { MIGRATIONS, PG_SCHEMA_VERSION, SEARCH_INDEX } from './schema.js';
import { redactUrl } from './url.js';

export async function currentSeq(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM svc_changes');
  return Number(rows[0]?.seq ?? 0);
}

/** Brings the tables to PG_SCHEMA_VERSION, one migration per transaction; refuses a newer database. */
export async function migrate(client: pg.ClientBase, url: string): Promise<void> {
  await client.query('CREATE TABLE IF NOT EXISTS svc_meta (key text PRIMARY KEY, value jsonb NOT NULL)');
  const { rows } = await client.query<{ value: number }>(`SELECT value FROM svc_meta WHERE key = 'schema_version'`);
  const version = rows[0]?.value ?? 0;
  if (version > PG_SCHEMA_VERSION) {
    throw new StoreOpenError(
      `the database at ${redactUrl(url)} was written by a newer svc (schema version ${version}, this one reads up to ${PG_SCHEMA_VERSION}); it was left untouched`,
    );
  }
  for (let from = version; from < PG_SCHEMA_VERSION; from += 1) {
    await client.query('BEGIN');
    try {
      for (const statement of MIGRATIONS[from]!) await client.query(statement);
      await client.query(`INSERT INTO svc_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
        JSON.stringify(from + 1),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw new StoreOpenError(`migrating the database at ${redactUrl(url)} to schema version ${from + 1} failed: ${(error as Error).message}`);
    }
  }
  try {
    await client.query(SEARCH_INDEX.extension);
    await client.query(SEARCH_INDEX.trigram);
  } catch {
    await client.query(SEARCH_INDEX.fallback);
  }
}
