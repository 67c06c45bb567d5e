/**
 * The PostgreSQL store's connections and how long they may wait. A database that
 * restarts, a connection that is cut, a peer process that stalls while holding a lock: each
 * must cost a bounded wait and a 503, then heal by itself.
 *
 * - `sessionLimits(holdMs)`: the limits every connection of the store is opened with. The
 *   server ends a session that sits idle inside a transaction for `holdMs` (a process stopped
 *   mid-write: its locks go, and when it wakes its commit is refused); a wait for a lock or a
 *   statement gives up after twice that; and the driver gives up on a server that says nothing
 *   at all (a partition) a second later.
 * - `Connection`: one dedicated client (the writer, the listener) that is made again after it
 *   breaks. `get()` answers the live client or connects a new one; `drop()` ends a client
 *   whose state is unknown (a failed transaction, a timeout) so the next `get()` starts clean.
 */
import pg from 'pg';

/** Default bound on how long a stalled process can hold the others (`--store-timeout`). */
export const DEFAULT_HOLD_MS = 3_000;

/**
 * The connection settings that bound every wait, for a hold of `holdMs`: the writer's (which
 * may wait for a lock another process holds) or the pool's (single statements that wait for
 * nobody, so a silent server is given up on sooner and a read answers 503 within about `holdMs`).
 */
export function sessionLimits(
  holdMs: number,
  role: 'writer' | 'pool',
): Pick<
  pg.ClientConfig,
  'idle_in_transaction_session_timeout' | 'lock_timeout' | 'statement_timeout' | 'query_timeout' | 'connectionTimeoutMillis' | 'keepAlive' | 'options'
> {
  const wait = role === 'writer' ? 2 * holdMs : holdMs;
  return {
    // Plans made for the rows at hand, never parallel: svc's statements read a handful of rows.
    // With the change log's statistics behind its growth, the planner took a catch-up for a large
    // scan and started worker processes for it, and the prepared catch-up kept a plan made when
    // the log was small (a sequential scan), reading the whole log each time, more as it grew.
    options: '-c max_parallel_workers_per_gather=0 -c plan_cache_mode=force_custom_plan',
    idle_in_transaction_session_timeout: holdMs,
    lock_timeout: wait,
    statement_timeout: wait,
    query_timeout: wait + 1_000,
    connectionTimeoutMillis: holdMs,
    keepAlive: true,
  };
}

/** Whether `error` is the database refusing one statement (a constraint, a bad value), as opposed to the connection failing. */
export function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // SQLSTATE classes 22 (data), 23 (integrity constraint), 42 (syntax or access), 54 (a limit: an
  // index row too long, a value nested too deep): the session is still good.
  return typeof code === 'string' && /^(22|23|42|54)/.test(code);
}

export type ConnectionState = { up: true } | { up: false; reason: string };

export class Connection {
  readonly #config: pg.ClientConfig;
  readonly #setup: (client: pg.Client) => Promise<void>;
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #state: ConnectionState = { up: false, reason: 'not connected yet' };
  #onLost: (() => void) | null = null;

  /** `setup` runs on each new client before it is handed out (LISTEN, for the listener). */
  constructor(config: pg.ClientConfig, setup: (client: pg.Client) => Promise<void> = async () => {}) {
    this.#config = config;
    this.#setup = setup;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Called once each time a connected client is lost (the server went away, the link was cut). */
  onLost(listener: () => void): void {
    this.#onLost = listener;
  }

  /** The live client, or a new one. Rejects when the server cannot be reached within the connect timeout. */
  get(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    const lost = (error?: Error): void => this.#lose(client, error?.message ?? 'the server closed the connection');
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await this.#setup(client);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.#state = { up: false, reason: (error as Error).message };
      throw error;
    }
    this.#client = client;
    this.#state = { up: true };
    return client;
  }

  #lose(client: pg.Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#state = { up: false, reason };
    this.#onLost?.();
  }

  /** Ends `client` (when it is still the current one): its session's state is unknown, so the next get() connects anew. */
  drop(client: pg.Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#state = { up: false, reason };
    client.removeAllListeners('end');
    void client.end().catch(() => {});
  }

  async close(): Promise<void> {
    const client = this.#client ?? (await this.#connecting?.catch(() => null)) ?? null;
    this.#client = null;
    this.#state = { up: false, reason: 'closed' };
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
