/**
 * The PostgreSQL store's rows (issues 20, 31): `GET /v1/users/:id`, and `POST /v1/apps` as one
 * tenant and as three (each connection one tenant's), against one `svc serve --store
 * postgres://…` process, then against three on the same database (the load split evenly, each
 * process taking a third of the connections), and the ratio 3 ÷ 1 (target 0.8 for reads and
 * three tenants' writes). The
 * server is Debian's PostgreSQL, started on a loopback port in a temp dir like the tests'
 * (src/test-support/postgres.ts); without it the rows are left out, saying so. Unlike the other
 * rows, the svc processes are not pinned to one core: three processes on one core would
 * measure only that core. They share the machine with PostgreSQL and the load generator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRuntime } from '../../src/emulator.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../../src/services/seed.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../../src/test-support/postgres.js';
import { addBenchUsers } from './data.js';
import { ACME_KEY } from './data.js';
import { CONNECTIONS, load, type LoadResult } from './load.js';
import { availableParallelism } from 'node:os';
import { freePort, startServer, type ServerProcess } from './processes.js';
import type { Row } from './report.js';
import { SVC_BIN } from './servers.js';

const acme = { 'x-api-key': ACME_KEY };
const USERS = 200;

/**
 * Load split over `servers` × `tenants`, about `CONNECTIONS` in all, evenly: throughput summed,
 * latency of the slowest.
 */
async function spread(servers: ServerProcess[], make: (server: ServerProcess, tenant: number) => Parameters<typeof load>[0], tenants = 1): Promise<LoadResult> {
  const groups = servers.flatMap((server) => Array.from({ length: tenants }, (_, tenant) => make(server, tenant)));
  const results = await Promise.all(groups.map((group) => load({ ...group, connections: Math.max(1, Math.round(CONNECTIONS / groups.length)) })));
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

/** `svc serve --store url` on any core (the first seeds the store from `seed`). */
async function startShared(url: string, seed?: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [SVC_BIN, 'serve', '--port', String(port), '--store', url, '--rate-limit', 'off', '--quiet', ...(seed === undefined ? [] : ['--seed', seed])],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/readyz',
    timeoutMs: 300_000,
    cores: `0-${availableParallelism() - 1}`,
  });
}

/** Users in the store a process joins (BENCH_PG_JOIN_USERS). */
const JOIN_USERS = Number(process.env['BENCH_PG_JOIN_USERS'] ?? 100_000);

/**
 * The envelope of a team deployment: how long a process takes to join a store of JOIN_USERS
 * users (start to /readyz 200; it reads every table) and the memory it then holds.
 */
async function joinRows(server: TestPostgres, log: (line: string) => void): Promise<Row[]> {
  const url = await server.database();
  const started = performance.now();
  const rt = await createRuntime({ storeUrl: url });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  await rt.store.compact();
  await addBenchUsers(rt, JOIN_USERS);
  await rt.close();
  log(`postgres: made the store in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const group = 'PostgreSQL store (--store)';
  const joining = await startShared(url);
  try {
    const readyMs = joining.startMs;
    const users = `${JOIN_USERS.toLocaleString('en-US')} users`;
    return [
      { group, name: `a process joins a store of ${users}: start to /readyz 200`, value: readyMs, unit: 'ms' },
      { group, name: `its memory once ready (RSS)`, value: joining.rssMb(), unit: 'MB' },
    ];
  } finally {
    await joining.stop();
  }
}

/** The default fixture plus a third tenant, so writes can be spread over three tenants. */
function threeTenantFixture(): { path: string; keys: string[] } {
  const fixture = JSON.parse(readFileSync(DEFAULT_FIXTURE_PATH, 'utf8')) as { tenants: Array<Record<string, unknown>> };
  const third = {
    ...structuredClone(fixture.tenants[1]!),
    id: 'ten_initech00000000000001',
    name: 'Initech Bench',
    apiKeys: [{ name: 'default', key: 'sk_test_initechBenchKey00000000000000001' }],
    users: [],
  };
  fixture.tenants.push(third);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  const path = join(dir, 'three-tenants.json');
  writeFileSync(path, JSON.stringify(fixture));
  const keys = fixture.tenants.map((tenant) => (tenant['apiKeys'] as Array<{ key: string }>)[0]!.key);
  return { path, keys };
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
  const { path: fixture, keys } = threeTenantFixture();
  try {
    const url = await server.database();
    processes.push(await startShared(url, fixture));
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
    const createApp = (target: ServerProcess, tenant: number): Parameters<typeof load>[0] => ({
      url: target.url,
      method: 'POST',
      headers: { 'x-api-key': keys[tenant]! },
      next: () => ({ path: '/v1/apps', body: JSON.stringify({ name: `pg bench ${process.pid} ${apps++}` }) }),
    });

    const measure = async (): Promise<Record<string, LoadResult>> => ({
      get: await spread(processes, getById),
      post1: await spread(processes, createApp),
      post3: await spread(processes, createApp, 3),
    });
    log('postgres: one process…');
    const one = await measure();
    log('postgres: three processes…');
    processes.push(await startShared(url), await startShared(url));
    const three = await measure();

    const group = 'PostgreSQL store (--store)';
    const cores = availableParallelism();
    const row = (name: string, result: LoadResult, base?: LoadResult): Row => ({
      group,
      name,
      value: result.rps,
      unit: 'req/s',
      detail: detail(result),
      ...(base ? { ratio: result.rps / base.rps, ratioLabel: '3 ÷ 1', target: '≥ 0.8', ok: result.rps / base.rps >= 0.8 } : {}),
    });
    log(`postgres: a process joining a store of ${JOIN_USERS.toLocaleString('en-US')} users…`);
    const joined = await joinRows(server, log);
    return [
      ...joined,
      row(`GET /v1/users/:id, 1 process (${cores} cores shared with PostgreSQL and the load)`, one['get']!),
      row('GET /v1/users/:id, 3 processes', three['get']!, one['get']),
      row('POST /v1/apps, 1 tenant, 1 process', one['post1']!),
      row('POST /v1/apps, 1 tenant, 3 processes', three['post1']!),
      row('POST /v1/apps, 3 tenants, 1 process', one['post3']!),
      row('POST /v1/apps, 3 tenants, 3 processes', three['post3']!, one['post3']),
    ];
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await server.stop();
    rmSync(dirname(fixture), { recursive: true, force: true });
  }
}
