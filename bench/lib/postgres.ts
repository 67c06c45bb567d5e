/**
 * The PostgreSQL store's rows (issue 20): `GET /v1/users/:id` and `POST /v1/apps` against one
 * `svc serve --store postgres://…` process, then against three on the same database (the load
 * split evenly, each process taking a third of the connections), and the ratio 3 ÷ 1. The
 * server is Debian's PostgreSQL, started on a loopback port in a temp dir like the tests'
 * (src/test-support/postgres.ts); without it the rows are left out, saying so. Unlike the other
 * rows, the svc processes are not pinned to one core: three processes on one core would
 * measure only that core. They share the machine with PostgreSQL and the load generator.
 */
import { postgresAvailability, startPostgres } from '../../src/test-support/postgres.js';
import { ACME_KEY } from './data.js';
import { CONNECTIONS, load, type LoadResult } from './load.js';
import { availableParallelism } from 'node:os';
import { freePort, startServer, type ServerProcess } from './processes.js';
import type { Row } from './report.js';
import { SVC_BIN } from './servers.js';

const acme = { 'x-api-key': ACME_KEY };
const USERS = 200;

/** Load split over `servers`, `CONNECTIONS` in all: throughput summed, latency of the slowest. */
async function spread(servers: ServerProcess[], make: (server: ServerProcess) => Parameters<typeof load>[0]): Promise<LoadResult> {
  const results = await Promise.all(servers.map((server) => load({ ...make(server), connections: Math.max(1, Math.round(CONNECTIONS / servers.length)) })));
  return {
    rps: results.reduce((sum, result) => sum + result.rps, 0),
    p50: Math.max(...results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

const detail = (result: LoadResult): string =>
  `p50 ${result.p50} ms, p99 ${result.p99} ms${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}${result.errors ? `, ${result.errors} errors` : ''}`;

/** `svc serve --store url` on any core. */
async function startShared(url: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [SVC_BIN, 'serve', '--port', String(port), '--store', url, '--rate-limit', 'off', '--quiet'],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
    cores: `0-${availableParallelism() - 1}`,
  });
}

export async function postgresRows(log: (line: string) => void, notes: string[]): Promise<Row[]> {
  const availability = postgresAvailability();
  if (!availability.available) {
    notes.push(`PostgreSQL rows left out: ${availability.reason}`);
    return [];
  }
  log('postgres: starting a server…');
  const server = await startPostgres();
  const processes: ServerProcess[] = [];
  try {
    const url = await server.database();
    processes.push(await startShared(url));
    const ids: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const response = await fetch(`${processes[0]!.url}/v1/users`, {
        method: 'POST',
        headers: { ...acme, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `pg.bench.${process.pid}.${i}@load.test` }),
      });
      ids.push(((await response.json()) as { data: { id: string } }).data.id);
    }
    let apps = 0;
    const getById = (target: ServerProcess): Parameters<typeof load>[0] => ({
      url: target.url,
      headers: acme,
      next: (i) => ({ path: `/v1/users/${ids[i % ids.length]!}` }),
    });
    const createApp = (target: ServerProcess): Parameters<typeof load>[0] => ({
      url: target.url,
      method: 'POST',
      headers: acme,
      next: () => ({ path: '/v1/apps', body: JSON.stringify({ name: `pg bench ${process.pid} ${apps++}` }) }),
    });

    log('postgres: one process…');
    const oneGet = await spread(processes, getById);
    const onePost = await spread(processes, createApp);
    log('postgres: three processes…');
    processes.push(await startShared(url), await startShared(url));
    const threeGet = await spread(processes, getById);
    const threePost = await spread(processes, createApp);

    const group = 'PostgreSQL store (--store)';
    const cores = availableParallelism();
    const row = (name: string, result: LoadResult, one?: LoadResult): Row => ({
      group,
      name,
      value: result.rps,
      unit: 'req/s',
      detail: detail(result),
      ...(one ? { ratio: result.rps / one.rps, ratioLabel: '3 ÷ 1' } : {}),
    });
    return [
      row(`GET /v1/users/:id, 1 process (${cores} cores shared with PostgreSQL and the load)`, oneGet),
      row('GET /v1/users/:id, 3 processes', threeGet, oneGet),
      row('POST /v1/apps, 1 process', onePost),
      row('POST /v1/apps, 3 processes', threePost, onePost),
    ];
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await server.stop();
  }
}
