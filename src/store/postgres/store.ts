/**
 * The PostgreSQL store: the same collections in memory as the file store, kept
 * in a database that several `svc serve` processes share, so that any of them answers any request.
 *
 * - A write is one transaction holding the locks of the tenants it touches (locks.ts), so
 *   the writes of one tenant are applied in one order everywhere and different tenants' do
 *   not wait for each other. Inside it the process first catches up with what the others
 *   wrote, then runs the services' mutations on records that are current (their unique checks
 *   hold across processes; the tables' constraints back them), then stores the rows and its
 *   change-log entries and commits. Writes that arrive while one transaction runs share the
 *   next of their lane (group commit); a process runs one lane per group of tenants at once.
 *   A transaction that fails takes back its changes in memory and answers 503; one whose
 *   statements the database refuses runs again one write at a time, so that the refused
 *   write fails alone (409 on a unique constraint) and the others commit.
 * - Every other process follows the change log: at the start of each request (`sync()`), on
 *   a NOTIFY, and once a second.
 * - Every wait is bounded and every connection heals (connection.ts): a write that cannot
 *   reach the database answers 503 within the hold time, the writer and the listener connect
 *   again on their own, and `/readyz` says why while this process cannot write. A commit whose
 *   answer was lost is read back from the change log like another process's write, so memory
 *   and database agree either way.
 * - What processes share beyond records lives in shared.ts: rate-limit buckets, claims on
 *   delivery attempts, injected faults, the clock, the seal key.
 */
import pg from 'pg';
import { ApiError } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import type { Collection } from '../collection.js';
import { StoreOpenError } from '../document.js';
import type { AnyRecord } from '../newest-first.js';
import { COLLECTION_NAMES } from '../records.js';
import { Store, type Claim, type Outcome, type SharedFaults, type SharedTxtRecords, type StoreOp } from '../store.js';
import type { Decision } from '../token-buckets.js';
import { currentSeq, migrate } from './migrate.js';
import { redactUrl } from './url.js';
import { buildOrRefuse, failureOf, inlined, orUnavailable, rowStatements, UnwritableWrite } from './rows.js';
import { LOCKS, tableOf } from './schema.js';
import { appendAndCommit, changeValues, laneOf, lockStatement, unionOf, WRITE_LANES, within, type Scope } from './locks.js';

import type { ChangeKind, ChangeLog } from './changes.js';
import { claimAttempt, PostgresFaults, PostgresTxtRecords, releaseAttempt, takeToken } from './shared.js';
import { Connection, DEFAULT_HOLD_MS, isStatementError, sessionLimits } from './connection.js';

/** How often a process looks at the change log when no NOTIFY came. */
const POLL_MS = 1_000;
/** Least time between two catch-ups of one process (see sync()). */
const SYNC_GAP_MS = 2;
/** Change-log entries older than this are pruned; a process further behind reloads every table. */
const CHANGE_LOG_KEEP = '10 minutes';
const PRUNE_EVERY_WRITES = 500;
/**
 * Most change-log entries one catch-up query reads; a process further behind reads again. The
 * limit also keeps the plan an ordered index scan whatever the table's statistics say (a
 * prepared statement's generic plan took `seq > $1` for a third of the table).
 */
const CATCH_UP_PAGE = 1_000;
const CATCH_UP = `SELECT seq, origin, kind, body, (SELECT min(seq) FROM svc_changes) AS oldest FROM svc_changes WHERE seq > $1 ORDER BY seq LIMIT ${CATCH_UP_PAGE}`;
/** The listener's wait before connecting again, doubled on each failure up to the cap. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 2_000;

export interface PostgresStoreOptions {
  /** How long a stalled process may hold the others, in ms (`--store-timeout`); every other wait is bounded from it. */
  holdMs?: number;
}

interface PendingWrite {
  mutate: () => unknown;
  scope: Scope;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  readonly connection: Connection;
  queue: PendingWrite[];
  writing: Promise<void> | null;
}

/** A change-log entry of another kind than records (the clock, the faults), with the statements that go with it. */
type ExtraChange = { kind: ChangeKind; body: unknown; statements: Array<[string, unknown[]]> };

/** The change-log entries of a write's (or a batch's) operations and other changes. */
function entriesOf(ops: StoreOp[], extra: ExtraChange[]): Array<[ChangeKind, unknown]> {
  const entries: Array<[ChangeKind, unknown]> = ops.length > 0 ? [['records', ops]] : [];
  for (const change of extra) entries.push([change.kind, change.body]);
  return entries;
}

/** The statements of `extra`'s changes, their values as literals. */
function extraStatements(extra: ExtraChange[], literal: (text: string) => string): string[] {
  return extra.flatMap((change) => change.statements.map(([sql, values]) => inlined(sql, values, literal)));
}

type ChangeRow = { seq: string; origin: string; kind: ChangeKind; body: unknown; oldest: string | null };

/** What a change-log entry holds, by kind. */
type ChangeHandler = (body: unknown) => void;

export class PostgresStore extends Store implements ChangeLog {
  readonly dataDir = null;
  readonly kind = 'postgres' as const;
  /** This process, as the change log names it. */
  readonly origin = `proc_${randomBase62(12)}`;
  readonly url: string;
  readonly #pool: pg.Pool;
  /** The connections and queues of writes, one lane per group of tenants (locks.ts). */
  readonly #lanes: Lane[];
  readonly #listener: Connection;
  /** Holds the start lock until the store is seeded (compact()); null once let go. */
  #starter: pg.Client | null;
  #lastSeq: number;
  /** Entries this process appended past #lastSeq: in memory already, so the catch-up passes over them. */
  readonly #ownSeqs = new Set<number>();
  #syncing: Promise<void> | null = null;
  #syncAgain: Promise<void> | null = null;
  /** Whether the catch-up in #syncing has sent its query (before, a request may still join it), and when the last one did. */
  #syncStarted = false;
  #syncStartedAt = Number.NEGATIVE_INFINITY;
  #writes = 0;
  #lastWriteError: unknown = null;
  /** Why the last catch-up failed, until one succeeds: a process that cannot read the log is not ready either. */
  #lastReadError: unknown = null;
  #closed = false;
  readonly #poll: NodeJS.Timeout;
  readonly #handlers = new Map<ChangeKind, ChangeHandler>();
  #faults: PostgresFaults | null = null;
  #txt: PostgresTxtRecords | null = null;
  /** Change-log entries of other kinds (writeChange) gathered by the write transaction under way. */
  #extra: ExtraChange[] = [];

  private constructor(url: string, config: pg.ClientConfig, pool: pg.Pool, starter: pg.Client, lastSeq: number) {
    super();
    this.url = url;
    this.#pool = pool;
    this.#lanes = Array.from({ length: WRITE_LANES }, () => ({ connection: new Connection(config), queue: [], writing: null }));
    this.#listener = new Connection(config, async (client) => {
      // A notification names the last entry of a commit; one this process already holds (its own, or
      // read by a catch-up meanwhile) needs no catch-up: an earlier entry of another process has
      // a notification of its own, and a listener that reconnects catches up anyway.
      client.on('notification', ({ payload }) => {
        const seq = Number(payload);
        if (seq <= this.#lastSeq || this.#ownSeqs.has(seq)) return;
        void this.sync().catch(() => {});
      });
      await client.query('LISTEN svc_changes');
    });
    this.#listener.onLost(() => this.#listen(RELISTEN_FIRST_MS));
    this.#starter = starter;
    this.#lastSeq = lastSeq;
    this.#handlers.set('records', (body) => {
      for (const op of body as StoreOp[]) this.applyRemote(op);
    });
    this.#poll = setInterval(() => void this.sync().catch(() => {}), POLL_MS);
    this.#poll.unref();
  }

  /** Connects the listener, again and again with a growing wait while the database is away; then catches up with what it missed. */
  #listen(waitMs: number): void {
    if (this.#closed) return;
    this.#listener.get().then(
      () => void this.sync().catch(() => {}),
      () => setTimeout(() => this.#listen(Math.min(waitMs * 2, RELISTEN_MAX_MS)), waitMs).unref(),
    );
  }

  /**
   * Connects, migrates (or refuses a newer schema), and reads every table. The process that
   * finds the database unseeded keeps the start lock until it has seeded it (compact()), so
   * the others open a seeded store.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<{ store: PostgresStore; isNew: boolean }> {
    const holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
    const config: pg.ClientConfig = { connectionString: url, ...sessionLimits(holdMs, 'writer') };
    const pool = new pg.Pool({ connectionString: url, ...sessionLimits(holdMs, 'pool'), max: 16 });
    // An idle client that loses its server must not take the process down with it; the pool makes a new one.
    pool.on('error', () => {});
    // The starter waits for another process's seeding and runs migrations: no statement or lock limit.
    const starter = new pg.Client({ connectionString: url, connectionTimeoutMillis: config.connectionTimeoutMillis ?? DEFAULT_HOLD_MS });
    starter.on('error', () => {});
    let store: PostgresStore | null = null;
    try {
      await starter.connect().catch((error: Error) => {
        throw new StoreOpenError(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${error.message}`);
      });
      await starter.query('SELECT pg_advisory_lock($1, $2)', [...LOCKS.start]);
      await migrate(starter, url);
      const seeded = (await starter.query<{ value: unknown }>(`SELECT value FROM svc_meta WHERE key = 'seeded'`)).rowCount === 1;
      if (!seeded) await starter.query(`TRUNCATE ${COLLECTION_NAMES.map(tableOf).join(', ')}`);
      const lastSeq = await currentSeq(starter);
      store = new PostgresStore(url, config, pool, starter, lastSeq);
      await Promise.all([store.#lanes[0]!.connection.get(), store.#listener.get()]);
      await store.#loadAll(starter);
      store.#faults = await PostgresFaults.open(store);
      if (seeded) await store.#endStart();
      return { store, isNew: !seeded };
    } catch (error) {
      if (store) await store.close().catch(() => {});
      else await starter.end().catch(() => {});
      await pool.end().catch(() => {});
      throw error;
    }
  }

  /** Reads every table into memory (on open, or when this process fell behind the pruned change log). */
  async #loadAll(client: pg.ClientBase | pg.Pool): Promise<void> {
    for (const name of COLLECTION_NAMES) this.collections[name].clear();
    for (const name of COLLECTION_NAMES) {
      const { rows } = await client.query<{ data: AnyRecord }>(`SELECT data FROM ${tableOf(name)} ORDER BY created_at NULLS FIRST, id`);
      const collection = this.collections[name] as unknown as Collection<AnyRecord>;
      for (const { data } of rows) collection.load(data);
    }
  }

  async #endStart(): Promise<void> {
    const starter = this.#starter;
    if (!starter) return;
    this.#starter = null;
    await starter.query(`INSERT INTO svc_meta (key, value) VALUES ('seeded', 'true') ON CONFLICT (key) DO NOTHING`);
    await starter.query('SELECT pg_advisory_unlock($1, $2)', [...LOCKS.start]);
    await starter.end();
  }

  /** Answers a change-log entry of `kind` from another process (shared.ts registers the clock's and the faults'). */
  handleChanges(kind: ChangeKind, handler: ChangeHandler): void {
    this.#handlers.set(kind, handler);
  }

  get pool(): pg.Pool {
    return this.#pool;
  }

  write<T>(mutate: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new ApiError('store_unavailable', 'the store is closed'));
    const scope = this.#scopeOf(mutate);
    const lane = this.#lanes[laneOf(scope)]!;
    return new Promise<T>((resolve, reject) => {
      lane.queue.push({ mutate, scope, resolve: resolve as (value: unknown) => void, reject });
      lane.writing ??= this.#drain(lane);
    });
  }

  /**
   * The tenants a write will touch, found by running it on the records as they are and taking
   * it back at once (nothing else runs in between). Its transaction locks them and runs it
   * again on current records; should it then reach further, it runs once more holding every
   * tenant.
   */
  #scopeOf(mutate: () => unknown): Scope {
    const extra = this.#extra.length;
    const undo: Array<() => void> = [];
    this.reach = { tenants: new Set(), every: false };
    try {
      this.mutateAll([{ mutate }], [], undo, []);
      for (const step of undo.reverse()) step();
      return this.reach.every ? null : this.reach.tenants;
    } finally {
      this.reach = null;
      this.#extra.length = extra;
    }
  }

  /**
   * Stores a change-log entry of another kind than records (the clock, the faults) in the
   * order of the writes, with `statements` run in the same transaction.
   */
  async writeChange(kind: ChangeKind, body: unknown, statements: Array<[string, unknown[]]> = []): Promise<void> {
    await this.write(() => {
      this.#extra.push({ kind, body, statements });
    });
  }

  async #drain(lane: Lane): Promise<void> {
    try {
      while (lane.queue.length > 0) {
        const batch = lane.queue;
        lane.queue = [];
        await this.#transaction(lane, batch, unionOf(batch.map((write) => write.scope)));
      }
    } finally {
      lane.writing = null;
    }
  }

  /**
   * One transaction for the writes a lane gathered meanwhile, holding the locks of `scope`; their
   * rows go with the commit in one round trip. When the database refuses a statement (a unique
   * rule another process won, a value it cannot hold), every write is taken back and the batch
   * runs again one write at a time (`oneByOne`), each on a savepoint: the refused write fails
   * alone, with its own error, and the others commit. A refusal is rare, so the common batch
   * pays nothing for it.
   */
  async #transaction(lane: Lane, batch: PendingWrite[], scope: Scope, oneByOne = false): Promise<void> {
    let client: pg.Client;
    try {
      client = await lane.connection.get();
    } catch (error) {
      this.#lastWriteError = error;
      const answer = new ApiError('store_unavailable', `the database cannot be reached: ${(error as Error).message}`);
      for (const write of batch) write.reject(answer);
      return;
    }
    const undo: Array<() => void> = [];
    const outcomes: Outcome[] = [];
    const ops: StoreOp[] = [];
    try {
      // One round trip: begin, take the locks, read what others wrote since (lastSeq is an integer).
      const opened = (await client.query(
        `BEGIN; ${lockStatement(scope)};
         ${CATCH_UP.replace('$1', String(Math.trunc(this.#lastSeq)))}`,
      )) as unknown as Array<pg.QueryResult<ChangeRow>>;
      await this.#catchUp(client, opened[2]!.rows);
      // Writes that came while this one waited for its locks and lie inside them join it: a
      // tenant's lock passes between processes, and each holder then takes all it gathered.
      if (scope !== null) this.#gather(lane, scope, batch);
      const literal = (text: string): string => client.escapeLiteral(text);
      const extra = oneByOne ? await this.#oneByOne(client, batch, scope, ops, undo, outcomes) : this.#mutate(batch, scope, ops, undo, outcomes);
      if (extra === null) {
        // On current records the writes reach a tenant their first look did not: again, holding every tenant.
        for (const step of undo.reverse()) step();
        await client.query('ROLLBACK');
        return this.#transaction(lane, batch, null, oneByOne);
      }
      if (ops.length > 0 || extra.length > 0) {
        // One by one, each write's rows are in already.
        const statements = oneByOne ? [] : buildOrRefuse(() => [...rowStatements(ops, literal), ...extraStatements(extra, literal)]);
        const values = buildOrRefuse(() => changeValues(client, this.origin, entriesOf(ops, extra)));
        this.#own(await appendAndCommit(client, values, statements));
        if (++this.#writes % PRUNE_EVERY_WRITES === 0) {
          void this.#pool.query(`DELETE FROM svc_changes WHERE at < now() - interval '${CHANGE_LOG_KEEP}'`).catch(() => {});
        }
      } else {
        await client.query('COMMIT');
      }
      this.#lastWriteError = null;
    } catch (error) {
      this.reach = null;
      this.#extra = [];
      // A statement the database refused leaves a good session; anything else (a lost link, a
      // timeout, a session the server ended while this process was stopped) leaves one whose
      // state is unknown: end it and connect anew on the next write.
      const refused = isStatementError(error) || error instanceof UnwritableWrite;
      if (refused) await client.query('ROLLBACK').catch(() => {});
      else lane.connection.drop(client, (error as Error).message);
      for (const step of undo.reverse()) step();
      this.#lastWriteError = refused ? null : error;
      // Which write the database refused is found by running them one by one.
      if (refused && !oneByOne && batch.length > 1) return this.#transaction(lane, batch, scope, true);
      const answer = failureOf(error, ops);
      for (const write of batch) write.reject(answer);
      return;
    }
    batch.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (!outcome.ok) return write.reject(outcome.error);
      write.resolve(outcome.value);
      for (const hook of outcome.hooks) hook();
    });
  }

  /**
   * Runs the batch's mutations on the records in memory, gathering their operations; answers
   * the change-log entries of other kinds they made, or null when they reached a tenant
   * outside `scope`.
   */
  #mutate(batch: PendingWrite[], scope: Scope, ops: StoreOp[], undo: Array<() => void>, outcomes: Outcome[]): ExtraChange[] | null {
    this.reach = { tenants: new Set(), every: false };
    this.mutateAll(batch, ops, undo, outcomes);
    const reach: Scope = this.reach.every ? null : this.reach.tenants;
    this.reach = null;
    const extra = this.#extra;
    this.#extra = [];
    return within(reach, scope) ? extra : null;
  }

  /**
   * Runs the batch one write at a time: its mutation, then its rows on a savepoint with the
   * deferred unique rules checked at once. A write whose rows the database refuses is taken
   * back, there and in memory (its change alone: later writes run on the records without it),
   * and answered with its own error (failureOf: 409 for a unique rule, 400 naming a value the
   * database cannot hold); the others go on. Answers as #mutate does; a failure of anything
   * but one write's statements (a lost connection) fails the transaction, as in one go.
   */
  async #oneByOne(
    client: pg.Client,
    batch: PendingWrite[],
    scope: Scope,
    ops: StoreOp[],
    undo: Array<() => void>,
    outcomes: Outcome[],
  ): Promise<ExtraChange[] | null> {
    const literal = (text: string): string => client.escapeLiteral(text);
    const extras: ExtraChange[] = [];
    for (const write of batch) {
      const mine: StoreOp[] = [];
      const myUndo: Array<() => void> = [];
      const extra = this.#mutate([write], scope, mine, myUndo, outcomes);
      undo.push(...myUndo);
      if (extra === null) return null;
      let statements: string[];
      try {
        statements = [...rowStatements(mine, literal), ...extraStatements(extra, literal)];
        changeValues(client, this.origin, entriesOf(mine, extra));
      } catch (error) {
        undo.length -= myUndo.length;
        for (const step of myUndo.reverse()) step();
        outcomes[outcomes.length - 1] = { ok: false, error: failureOf(new UnwritableWrite(error), mine) };
        continue;
      }
      if (statements.length > 0) {
        try {
          await client.query(
            ['SAVEPOINT svc_write', ...statements, 'SET CONSTRAINTS ALL IMMEDIATE', 'SET CONSTRAINTS ALL DEFERRED', 'RELEASE SAVEPOINT svc_write'].join(';\n'),
          );
        } catch (error) {
          if (!isStatementError(error)) throw error;
          await client.query('ROLLBACK TO SAVEPOINT svc_write; RELEASE SAVEPOINT svc_write');
          undo.length -= myUndo.length;
          for (const step of myUndo.reverse()) step();
          outcomes[outcomes.length - 1] = { ok: false, error: failureOf(error, mine) };
          continue;
        }
      }
      ops.push(...mine);
      extras.push(...extra);
    }
    return extras;
  }

  /**
   * Moves from the lane's queue into `batch` the writes that lie inside `scope`, keeping the
   * order of writes that share a tenant: one left waiting holds back every later one of its
   * tenants.
   */
  #gather(lane: Lane, scope: ReadonlySet<string>, batch: PendingWrite[]): void {
    const held = new Set<string>();
    const waiting: PendingWrite[] = [];
    for (const [index, write] of lane.queue.entries()) {
      if (write.scope === null) {
        waiting.push(...lane.queue.slice(index));
        break;
      }
      const free = [...write.scope].every((tenant) => !held.has(tenant));
      if (free && within(write.scope, scope)) batch.push(write);
      else {
        for (const tenant of write.scope) held.add(tenant);
        waiting.push(write);
      }
    }
    lane.queue = waiting;
  }

  /** Notes this process's own committed entries (already in memory), and moves past them once nothing before them is missing. */
  #own(seqs: number[]): void {
    for (const seq of seqs) this.#ownSeqs.add(seq);
    while (this.#ownSeqs.delete(this.#lastSeq + 1)) this.#lastSeq += 1;
  }

  /**
   * Applies what other processes wrote since this one last looked, a page at a time, starting
   * with `first` when the caller read that page already. Runs on the writer's connection inside
   * a write (under the lock), or on the pool for sync().
   */
  async #catchUp(client: pg.ClientBase | pg.Pool, first?: ChangeRow[]): Promise<void> {
    // Prepared once per connection: every request of every process runs it.
    const read = async (): Promise<ChangeRow[]> => (await client.query<ChangeRow>({ name: 'svc_catch_up', text: CATCH_UP, values: [this.#lastSeq] })).rows;
    for (let rows = first ?? (await read()); ; rows = await read()) {
      await this.#apply(rows, client);
      if (rows.length < CATCH_UP_PAGE) return;
    }
  }

  /**
   * Applies change-log rows (seq order) newer than what this process has. Its own show up here
   * only when a commit's answer was lost: the change was kept, so memory takes it back.
   */
  async #apply(rows: ChangeRow[], client: pg.ClientBase | pg.Pool): Promise<void> {
    if (rows.length === 0) return;
    const oldest = Number(rows[0]!.oldest);
    if (oldest > this.#lastSeq + 1 && Number(rows[0]!.seq) !== this.#lastSeq + 1) {
      // Entries this process never saw were pruned: read every table again.
      const last = Number(rows[rows.length - 1]!.seq);
      await this.#loadAll(client);
      this.#lastSeq = Math.max(this.#lastSeq, last);
      for (const seq of this.#ownSeqs) if (seq <= this.#lastSeq) this.#ownSeqs.delete(seq);
      return;
    }
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq <= this.#lastSeq) continue;
      this.#lastSeq = seq;
      if (this.#ownSeqs.delete(seq)) continue;
      this.#handlers.get(row.kind)?.(row.body);
    }
  }

  /**
   * Catches up with the change log. Requests that arrive while one catch-up runs share the
   * next one (which starts after they arrived, so it sees every write committed before them).
   * Catch-ups start at most once per SYNC_GAP_MS: under load each serves every request that
   * arrived meanwhile, so the database answers a few hundred a second per process, not one
   * per request (with three processes that cost more than the requests themselves).
   */
  override sync(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#syncing && !this.#syncStarted) return this.#syncing;
    if (!this.#syncing) {
      const wait = this.#syncStartedAt + SYNC_GAP_MS - performance.now();
      const start = (): Promise<void> => {
        this.#syncStarted = true;
        this.#syncStartedAt = performance.now();
        return this.#catchUp(this.#pool);
      };
      this.#syncStarted = false;
      this.#syncing = (wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)).then(start) : start())
        .then(
          () => {
            this.#lastReadError = null;
          },
          (error: unknown) => {
            this.#lastReadError = error;
            throw error;
          },
        )
        .finally(() => {
          this.#syncing = null;
        });
      return this.#syncing;
    }
    // When the catch-up under way fails, so does the next: the database did not answer, and a
    // request waits for one timeout, not two.
    this.#syncAgain ??= this.#syncing
      .finally(() => {
        this.#syncAgain = null;
      })
      .then(() => this.sync());
    return this.#syncAgain;
  }

  async settled(): Promise<void> {
    for (;;) {
      const writing = this.#lanes.map((lane) => lane.writing).filter((w): w is Promise<void> => w !== null);
      if (writing.length === 0) return;
      await Promise.allSettled(writing);
    }
  }

  get writable(): boolean {
    return this.#lastWriteError === null && this.#lastReadError === null && this.#lanes[0]!.connection.state.up && !this.#closed;
  }

  override get unavailableReason(): string {
    if (this.#closed) return 'the store is closed';
    const writer = this.#lanes[0]!.connection.state;
    if (!writer.up) return `the database cannot be written: ${writer.reason}`;
    if (this.#lastWriteError !== null) return `the last write failed: ${(this.#lastWriteError as Error).message}`;
    if (this.#lastReadError !== null) return `the change log cannot be read: ${(this.#lastReadError as Error).message}`;
    return 'the database cannot be written';
  }

  /** Catches up and tries a write (connecting again if need be): ready means the log can be read and a transaction can commit. */
  async probe(): Promise<boolean> {
    try {
      await this.sync();
      await this.write(() => {});
      return this.writable;
    } catch {
      return false;
    }
  }

  /** Ends the start: the store is seeded, and a process waiting to open it goes on. */
  async compact(): Promise<void> {
    await this.settled();
    await this.#endStart();
  }

  override get sharedFaults(): SharedFaults | null {
    return this.#faults;
  }

  override get sharedTxtRecords(): SharedTxtRecords {
    return (this.#txt ??= new PostgresTxtRecords(this.#pool));
  }

  override takeToken(id: string, rate: number): Promise<Decision> {
    return orUnavailable(takeToken(this.#pool, id, rate));
  }

  override async claimAttempt(id: string, nowIso: string, holdMs: number): Promise<Claim> {
    return orUnavailable(claimAttempt(this.#pool, this.origin, id, nowIso, holdMs));
  }

  override async releaseAttempt(id: string): Promise<void> {
    return orUnavailable(releaseAttempt(this.#pool, this.origin, id));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.settled();
    this.#closed = true;
    clearInterval(this.#poll);
    await this.#syncing?.catch(() => {});
    await this.#starter?.end().catch(() => {});
    await Promise.allSettled([...this.#lanes.map((lane) => lane.connection.close()), this.#listener.close()]);
    await this.#pool.end().catch(() => {});
  }
}
