/**
 * A real PostgreSQL server for the tests, from Debian's packages (`apt-get install -y
 * postgresql`): `initdb` in a temp dir and `pg_ctl` on a free loopback port, as the tests' own
 * user (or as `postgres` when the tests run as root, which initdb refuses). Without the
 * binaries the tests are skipped with a clear message, unless REQUIRE_POSTGRES=1 (CI), where
 * they fail instead.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.js';

/** Where Debian puts a PostgreSQL's binaries: /usr/lib/postgresql/<major>/bin; $PG_BIN, when set, wins. */
function findBinDir(): string | null {
  const fromEnv = process.env['PG_BIN'];
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? null : join(root, majors[0], 'bin');
}

const BIN_DIR = findBinDir();

/** Whether the PostgreSQL tests can run here; when they cannot, why (to print when skipping). */
export function postgresAvailability(): { available: boolean; reason: string } {
  if (BIN_DIR !== null) return { available: true, reason: '' };
  const reason = 'PostgreSQL not found under /usr/lib/postgresql/*/bin: install it with `apt-get install -y postgresql` (or set PG_BIN)';
  if (process.env['REQUIRE_POSTGRES'] === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${reason}`);
  return { available: false, reason };
}

export interface TestPostgres {
  /** postgres://svc@127.0.0.1:PORT/postgres — a superuser named svc, no password (trust, loopback only). */
  readonly url: string;
  readonly port: number;
  /** A new, empty database on this server, and its URL. */
  database(name?: string): Promise<string>;
  /** Stops the server as an operator would (`pg_ctl stop -m fast`: sessions are ended), keeping its data. */
  halt(): void;
  /** Starts it again on the same port, after halt(). */
  resume(): void;
  stop(): Promise<void>;
}

/** initdb refuses to run as root: then the server belongs to the `postgres` user Debian's package makes. */
function runAs(): string[] {
  return userInfo().uid === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

function run(command: string, args: string[]): void {
  const [head, ...rest] = [...runAs(), join(BIN_DIR!, command), ...args];
  execFileSync(head!, rest, { stdio: 'pipe' });
}

let databases = 0;

/** Starts a throwaway server (fsync off: the tests' data does not outlive them). */
export async function startPostgres(): Promise<TestPostgres> {
  if (BIN_DIR === null) throw new Error(postgresAvailability().reason);
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'svc', '--no-sync', '-E', 'UTF8', '--locale=C']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  let port = 0;
  const start = (): void => {
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
  };
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      start();
      break;
    } catch (error) {
      if (attempt >= 2) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`pg_ctl start failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}\n${tail}`);
      }
    }
  }
  const url = `postgres://svc@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async database(name = `svc_test_${process.pid}_${++databases}`) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://svc@127.0.0.1:${port}/${name}`;
    },
    halt() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      start();
    },
    stop() {
      if (stopped) return Promise.resolve();
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already halted.
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
  };
}
