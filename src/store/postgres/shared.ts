/**
 * What the processes sharing a PostgreSQL store agree on beyond records: the
 * rate-limit buckets (D16), one claim per delivery attempt (`SELECT … FOR UPDATE SKIP
 * LOCKED`, so each attempt is made by one process, and a dead process's claim lapses), the
 * injected faults (D11), the emulator clock (D10), the seal key of secrets at rest, and the
 * emulated DNS TXT records (docs/control-plane.md#emulated-dns).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { Clock, type ClockOptions, type ClockState } from '../../clock/clock.js';
import type { Claim, SharedFault, SharedFaults, SharedTxtRecords, StoredTxtRecord } from '../store.js';
import { BURST_SECONDS, type Decision } from '../token-buckets.js';
import type { ChangeLog } from './changes.js';
import { orUnavailable } from './rows.js';

/**
 * Takes a token from bucket `id` in one statement: refill on the database's time since the
 * last take, then take one if there is one. Concurrent takes on one bucket queue on its row.
 */
export async function takeToken(pool: pg.Pool, id: string, rate: number): Promise<Decision> {
  const capacity = rate * BURST_SECONDS;
  const refilled = `LEAST($2::float8, b.tokens + extract(epoch FROM clock_timestamp() - b.at) * $3::float8)`;
  const { rows } = await pool.query<{ tokens: number; allowed: boolean }>(
    `INSERT INTO svc_buckets AS b (id, tokens, at, allowed) VALUES ($1, $2::float8 - 1, clock_timestamp(), true)
     ON CONFLICT (id) DO UPDATE SET
       tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
       allowed = ${refilled} >= 1,
       at = clock_timestamp()
     RETURNING tokens, allowed`,
    [id, capacity, rate],
  );
  const row = rows[0]!;
  const limit = Math.max(1, Math.floor(capacity));
  if (!row.allowed) return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil((1 - row.tokens) / rate)) };
  return { allowed: true, limit, remaining: Math.max(0, Math.floor(row.tokens)), resetSeconds: Math.ceil((capacity - row.tokens) / rate) };
}

/**
 * Claims delivery `id`'s next attempt for `origin`: only when it is due at `nowIso` and no
 * other process holds a live claim. The claim lapses after `holdMs` of real time, so that an
 * attempt whose process died is made by another (at least once, never lost).
 */
export async function claimAttempt(pool: pg.Pool, origin: string, id: string, nowIso: string, holdMs: number): Promise<Claim> {
  const claimed = await pool.query(
    `WITH candidate AS (
       SELECT id FROM svc_deliveries
        WHERE id = $1 AND next_attempt_at IS NOT NULL AND next_attempt_at <= $2
          AND (claimed_by IS NULL OR claimed_by = $3 OR claim_until < clock_timestamp())
        FOR UPDATE SKIP LOCKED)
     UPDATE svc_deliveries d SET claimed_by = $3, claim_until = clock_timestamp() + $4::float8 * interval '1 millisecond'
       FROM candidate WHERE d.id = candidate.id RETURNING d.id`,
    [id, nowIso, origin, holdMs],
  );
  if (claimed.rowCount === 1) return { state: 'claimed' };
  const { rows } = await pool.query<{ next_attempt_at: string | null; ms: number | null }>(
    `SELECT next_attempt_at, GREATEST(0, extract(epoch FROM claim_until - clock_timestamp()) * 1000)::float8 AS ms FROM svc_deliveries WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row || row.next_attempt_at === null || row.next_attempt_at > nowIso) return { state: 'not-due', nextAttemptAt: row?.next_attempt_at ?? null };
  // Held (or being claimed this instant, the row locked): wait as long as a claim can last.
  return { state: 'busy', forMs: row.ms ?? holdMs };
}

/** Ends `origin`'s claim on attempt `id` (an attempt it found it will not make). */
export async function releaseAttempt(pool: pg.Pool, origin: string, id: string): Promise<void> {
  await pool.query(`UPDATE svc_deliveries SET claimed_by = NULL, claim_until = NULL WHERE id = $1 AND claimed_by = $2`, [id, origin]);
}

/** The seal key every process of the database uses, made by the first. */
export async function sharedSealKey(pool: pg.Pool): Promise<Buffer> {
  await pool.query(`INSERT INTO svc_meta (key, value) VALUES ('seal_key', $1) ON CONFLICT (key) DO NOTHING`, [
    JSON.stringify(randomBytes(32).toString('base64')),
  ]);
  const { rows } = await pool.query<{ value: string }>(`SELECT value FROM svc_meta WHERE key = 'seal_key'`);
  return Buffer.from(rows[0]!.value, 'base64');
}

/**
 * The clock of the database: the stored one, unless `options` name a start time or a speed
 * (which win and are stored). Every change is stored in the order of the writes and followed
 * by every other process, whose scheduler then re-plans.
 */
export async function openSharedClock(store: ChangeLog, options: ClockOptions = {}): Promise<Clock> {
  const { rows } = await store.pool.query<{ value: ClockState }>(`SELECT value FROM svc_meta WHERE key = 'clock'`);
  const stored = rows[0]?.value;
  const clock = new Clock({ ...options, ...(stored === undefined ? {} : { resume: stored }) });
  const save = (state: ClockState): Promise<void> =>
    store.writeChange('clock', state, [
      [`INSERT INTO svc_meta (key, value) VALUES ('clock', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [JSON.stringify(state)]],
    ]);
  if (stored === undefined || options.speed !== undefined || options.startTime !== undefined) await save(clock.state());
  store.handleChanges('clock', (body) => clock.adopt(body as ClockState));
  // A move is answered once stored; one that cannot be is taken back (clock.kept()).
  clock.keepWith(save);
  return clock;
}

/** A fault's columns under the names of SharedFault. */
const FAULT_COLUMNS = (table: string): string =>
  ['id', 'method', 'path', 'pattern', 'status', 'delay', 'delay_ms AS "delayMs"', 'count', 'remaining', 'tenant_id AS "tenant"', 'created_at AS "createdAt"']
    .map((column) => `${table}.${column}`)
    .join(', ');

/** What a change of the faults tells every process: how many were added since the last clear, and how many of them name a tenant. */
interface FaultCounts {
  active: number;
  scoped: number;
}

/** The faults of a database: a table every process counts requests against. */
export class PostgresFaults implements SharedFaults {
  #counts: FaultCounts;

  constructor(
    private readonly store: ChangeLog,
    counts: FaultCounts,
  ) {
    this.#counts = counts;
    store.handleChanges('faults', (body) => {
      const { active, scoped } = body as Partial<FaultCounts>;
      // An entry of a process from before faults could name a tenant has no `scoped`: then any active one may.
      this.#counts = { active: active ?? 0, scoped: scoped ?? active ?? 0 };
    });
  }

  static async open(store: ChangeLog): Promise<PostgresFaults> {
    const { rows } = await store.pool.query<{ n: string; scoped: string }>(
      'SELECT count(*) AS n, count(tenant_id) AS scoped FROM svc_faults WHERE remaining > 0',
    );
    return new PostgresFaults(store, { active: Number(rows[0]!.n), scoped: Number(rows[0]!.scoped) });
  }

  get active(): boolean {
    return this.#counts.active > 0;
  }

  get scoped(): boolean {
    return this.#counts.scoped > 0;
  }

  /** Stores a fault for every process; the counts here move only once it is stored. */
  async add(fault: SharedFault): Promise<void> {
    const counts = { active: this.#counts.active + 1, scoped: this.#counts.scoped + (fault.tenant === null ? 0 : 1) };
    await this.store.writeChange('faults', counts, [
      [
        `INSERT INTO svc_faults (id, method, path, pattern, status, delay, delay_ms, count, remaining, tenant_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          fault.id,
          fault.method,
          fault.path,
          fault.pattern,
          fault.status,
          fault.delay,
          fault.delayMs,
          fault.count,
          fault.remaining,
          fault.tenant,
          fault.createdAt,
        ],
      ],
    ]);
    this.#counts = counts;
  }

  async clear(): Promise<number> {
    const { rows } = await orUnavailable(this.store.pool.query<{ n: string }>('SELECT count(*) AS n FROM svc_faults WHERE remaining > 0'));
    await this.store.writeChange('faults', { active: 0, scoped: 0 }, [['DELETE FROM svc_faults', []]]);
    this.#counts = { active: 0, scoped: 0 };
    return Number(rows[0]!.n);
  }

  async list(): Promise<SharedFault[]> {
    const { rows } = await orUnavailable(
      this.store.pool.query<SharedFault>(`SELECT ${FAULT_COLUMNS('svc_faults')} FROM svc_faults WHERE remaining > 0 ORDER BY seq`),
    );
    return rows;
  }

  async take(method: string, relativePath: string, tenantId: string | null): Promise<SharedFault | undefined> {
    const { rows } = await orUnavailable(
      this.store.pool.query<SharedFault>(
        `UPDATE svc_faults f SET remaining = f.remaining - 1
         FROM (SELECT seq FROM svc_faults
               WHERE remaining > 0 AND (method IS NULL OR method = $1) AND $2 ~ pattern AND (tenant_id IS NULL OR tenant_id = $3)
               ORDER BY seq LIMIT 1 FOR UPDATE) pick
        WHERE f.seq = pick.seq RETURNING ${FAULT_COLUMNS('f')}`,
        [method, relativePath, tenantId],
      ),
    );
    return rows[0];
  }
}

/**
 * The emulated DNS TXT records of a database: one row of svc_meta (`dns_txt`), an object of
 * records by name, changed by one statement each (jsonb `||` and `-`), so that two processes
 * setting two names at once keep both. Every call asks the database: a verification answered by
 * any process sees the record another process set.
 */
export class PostgresTxtRecords implements SharedTxtRecords {
  constructor(private readonly pool: pg.Pool) {}

  async all(): Promise<Record<string, StoredTxtRecord>> {
    const { rows } = await orUnavailable(this.pool.query<{ value: Record<string, StoredTxtRecord> }>(`SELECT value FROM svc_meta WHERE key = 'dns_txt'`));
    return rows[0]?.value ?? {};
  }

  async get(name: string): Promise<StoredTxtRecord | undefined> {
    const { rows } = await orUnavailable(
      this.pool.query<{ record: StoredTxtRecord | null }>(`SELECT value -> $1 AS record FROM svc_meta WHERE key = 'dns_txt'`, [name]),
    );
    return rows[0]?.record ?? undefined;
  }

  async put(name: string, record: StoredTxtRecord, maxNames: number): Promise<boolean> {
    const entry = JSON.stringify({ [name]: record });
    const { rowCount } = await orUnavailable(
      this.pool.query(
        `INSERT INTO svc_meta AS m (key, value) VALUES ('dns_txt', $1::jsonb)
         ON CONFLICT (key) DO UPDATE SET value = m.value || EXCLUDED.value
          WHERE m.value ? $2 OR (SELECT count(*) FROM jsonb_object_keys(m.value)) < $3`,
        [entry, name, maxNames],
      ),
    );
    return rowCount === 1;
  }

  async remove(name: string): Promise<boolean> {
    const { rowCount } = await orUnavailable(this.pool.query(`UPDATE svc_meta SET value = value - $1 WHERE key = 'dns_txt' AND value ? $1`, [name]));
    return rowCount === 1;
  }
}
