/**
 * The PostgreSQL store's rows: `GET /v1/users/:id`, and `POST /v1/apps` as one
 * tenant and as three (each request the next tenant's), against one `svc serve --store
 * postgres://…` process, then against three on the same database (the load split evenly, each
 * process taking a third of the connections), and the ratio 3 ÷ 1 (target 0.8 for reads and
 * three tenants' writes). The load comes from wrk where it is installed: autocannon, one Node
 * process, spends about as much CPU a request as svc does, and on two cores that leaves the
 * servers one core between them whatever their number. The server is Debian's PostgreSQL,
 * started on a loopback port in a temp dir like the tests' (src/test-support/postgres.ts);
 * without it the rows are left out, saying so. Unlike the other rows, the svc processes are not
 * pinned to one core: three processes on one core would measure only that core. They share the
 * machine with PostgreSQL and the load generator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRuntime } from '../../src/emulator.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../../src/services/seed.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../../src/test-support/postgres.js';
import { addBenchUsers } from './data.js';
import { ACME_KEY } from './data.js';
import { CONNECTIONS, load, SECONDS, type LoadResult } from './load.js';
import { WRK, wrk } from './wrk.js';
import { availableParallelism } from 'node:os';
import { freePort, startServer, waitUntilUp, type ServerProcess } from './processes.js';
import { median } from './paired.js';
import type { Row } from './report.js';
import { startSvc, SVC_BIN } from './servers.js';

const acme = { 'x-api-key': ACME_KEY };
const USERS = 200;
/** Every core: three processes pinned to one would measure only that core. */
const ALL_CORES = `0-${availableParallelism() - 1}`;
/** Rounds of one process then three (BENCH_PG_ROUNDS). */
const ROUNDS = Number(process.env['BENCH_PG_ROUNDS'] ?? 3);

/** What a row loads each process with: GETs of these paths, or POSTs of a numbered body as each tenant in turn. */
type Work = { get: readonly string[] } | { post: { path: string; body: string; apiKeys: readonly string[] } };

/** A load run's result, with the servers' CPU a request where /proc tells it. */
type Measured = LoadResult & { cpuUs: number | undefined };

/** One load run against one process: wrk where installed, else autocannon. */
function loadOne(server: ServerProcess, work: Work, connections: number): Promise<LoadResult> {
  if (WRK) return wrk({ url: server.url, connections, ...('get' in work ? { headers: acme, paths: work.get } : { post: work.post }) });
  if ('get' in work) return load({ url: server.url, headers: acme, connections, next: (i) => ({ path: work.get[i % work.get.length]! }) });
  const { path, body, apiKeys } = work.post;
  let n = 0;
  return load({
    url: server.url,
    method: 'POST',
    connections,
    // autocannon's headers are per run, so each tenant gets its own run (a third of the connections).
    headers: { 'x-api-key': apiKeys[0]! },
    next: () => ({ path, body: body.replace('{n}', String(++n)) }),
  });
}

/** CPU seconds the servers used so far (undefined without /proc). */
const cpuOf = (servers: ServerProcess[]): number | undefined =>
  servers.reduce<number | undefined>((sum, server) => (sum === undefined || server.cpuSeconds() === undefined ? undefined : sum + server.cpuSeconds()!), 0);

/**
 * Load split over `servers`, about `CONNECTIONS` in all, evenly: throughput summed, latency of
 * the slowest, and the servers' CPU per request.
 */
async function spread(servers: ServerProcess[], make: (index: number, count: number) => Work[]): Promise<Measured> {
  const runs = servers.flatMap((server, index) => make(index, servers.length).map((work) => [server, work] as const));
  const before = cpuOf(servers);
  const results = await Promise.all(runs.map(([server, work]) => loadOne(server, work, Math.max(1, Math.round(CONNECTIONS / runs.length)))));
  const after = cpuOf(servers);
  const rps = results.reduce((sum, result) => sum + result.rps, 0);
  return {
    rps,
    p50: Math.max(...results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    cpuUs: before === undefined || after === undefined ? undefined : ((after - before) / (rps * SECONDS)) * 1e6,
  };
}

const detail = (result: Measured): string =>
  `p50 ${result.p50} ms, p99 ${result.p99} ms${result.cpuUs === undefined ? '' : `; svc CPU ${Math.round(result.cpuUs)} µs a request`}` +
  `${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}${result.errors ? `, ${result.errors} errors` : ''}`;

/** `svc serve --store url` on any core (the first seeds the store from `seed`). */
async function startShared(url: string, seed?: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [SVC_BIN, 'serve', '--port', String(port), '--store', url, '--rate-limit', 'off', '--quiet', ...(seed === undefined ? [] : ['--seed', seed])],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/readyz',
    timeoutMs: 300_000,
    cores: ALL_CORES,
  });
}

/** USERS users made through `server`, as Acme; answers their ids. */
async function makeUsers(server: ServerProcess, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const response = await fetch(`${server.url}/v1/users`, {
      method: 'POST',
      headers: { ...acme, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `pg.bench.${process.pid}.${tag}.${i}@load.test` }),
    });
    ids.push(((await response.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}

/**
 * What the machine itself allows: GET by id against one data-dir process, then against three
 * that share nothing (each its own data dir and users), in the same rounds and load as the
 * PostgreSQL rows. Whatever three processes lose here, they lose on any store.
 */
async function referenceRow(log: (line: string) => void): Promise<Row> {
  const dirs: string[] = [];
  const servers: Array<{ server: ServerProcess; ids: string[] }> = [];
  try {
    for (let n = 0; n < 3; n++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ref-'));
      dirs.push(dir);
      const server = await startSvc(dir, undefined, {}, ALL_CORES);
      servers.push({ server, ids: await makeUsers(server, `ref${n}`) });
    }
    const run = async (count: number): Promise<number> => {
      const results = await Promise.all(
        servers.slice(0, count).map(({ server, ids }) => loadOne(server, { get: ids.map((id) => `/v1/users/${id}`) }, Math.round(CONNECTIONS / count))),
      );
      return results.reduce((sum, result) => sum + result.rps, 0);
    };
    const rounds: Array<[number, number]> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      log(`postgres: the machine's reference, round ${round} of ${ROUNDS}…`);
      rounds.push([await run(1), await run(3)]);
    }
    const ratios = rounds.map(([one, three]) => three / one);
    return {
      group: 'PostgreSQL store (--store)',
      name: 'the machine’s reference: GET /v1/users/:id, 3 data-dir processes that share nothing',
      detail: `rounds of 1 then 3 processes ${rounds.map(([one, three]) => `${Math.round(one).toLocaleString('en-US')} → ${Math.round(three).toLocaleString('en-US')}`).join(', ')}`,
      value: median(rounds.map(([, three]) => three)),
      unit: 'req/s',
      ratio: median(ratios),
      ratioLabel: '3 ÷ 1, median',
    };
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Waits for `server` to answer an API request: a request waits for a catch-up that started
 * after it came (`/readyz` does not), so a process woken from a pause has then read every write
 * it missed.
 */
const caughtUp = (server: ServerProcess, path: string): Promise<void> => waitUntilUp(`${server.url}${path}`, server.child, 60_000, acme);

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
    const ids = await makeUsers(processes[0]!, 'pg');
    const getById = (): Work[] => [{ get: ids.map((id) => `/v1/users/${id}`) }];
    let runs = 0;
    // wrk sends each request as the next tenant; autocannon, whose headers are per run, one run per tenant.
    const createApp = (tenants: string[]): Work[] => {
      const body = (): string => JSON.stringify({ name: `pg bench ${process.pid} ${++runs} {n}` });
      return WRK
        ? [{ post: { path: '/v1/apps', body: body(), apiKeys: tenants } }]
        : tenants.map((key) => ({ post: { path: '/v1/apps', body: body(), apiKeys: [key] } }));
    };

    type Kind = 'get' | 'post1' | 'post3' | 'post3ByKey';
    const kinds: Record<Kind, (index: number, count: number) => Work[]> = {
      get: getById,
      post1: () => createApp(keys.slice(0, 1)),
      post3: () => createApp(keys),
      // A load balancer that routes by API key (one tenant, one process): each of three
      // processes takes one tenant's writes; one process alone takes all three, as in post3.
      post3ByKey: (index, count) => createApp(count === 1 ? keys : [keys[index % keys.length]!]),
    };
    const ones: Record<Kind, Measured[]> = { get: [], post1: [], post3: [], post3ByKey: [] };
    const threes: Record<Kind, Measured[]> = { get: [], post1: [], post3: [], post3ByKey: [] };
    // Three processes throughout; for one process's runs the other two are paused (SIGSTOP), so
    // each run of one is paired with a run of three just after it: on a shared machine a single
    // pair of runs taken minutes apart can be off by half. A paused process does no work (its
    // server sessions only queue the notifications it will read); woken, it catches up with every
    // write it missed before it answers a request, and the three-process run starts after that.
    processes.push(await startShared(url), await startShared(url));
    const others = processes.slice(1);
    await Promise.all(others.map((server) => loadOne(server, getById()[0]!, 4)));
    for (const kind of Object.keys(kinds) as Kind[]) {
      for (let round = 1; round <= ROUNDS; round++) {
        log(`postgres: ${kind}, round ${round} of ${ROUNDS}…`);
        // Writes a run left under way end within milliseconds; a process paused inside one would hold its tenants' locks.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await Promise.all(processes.map((server) => caughtUp(server, `/v1/users/${ids[0]!}`)));
        for (const other of others) other.child.kill('SIGSTOP');
        try {
          ones[kind].push(await spread(processes.slice(0, 1), kinds[kind]));
        } finally {
          for (const other of others) other.child.kill('SIGCONT');
        }
        await Promise.all(others.map((other) => caughtUp(other, `/v1/users/${ids[0]!}`)));
        threes[kind].push(await spread(processes, kinds[kind]));
      }
    }

    const group = 'PostgreSQL store (--store)';
    const cores = availableParallelism();
    /** The row of the round whose figure is the median, with every round's figure (and ratio to its one-process run) listed. */
    const row = (name: string, kind: Kind, three = false): Row => {
      const runs = three ? threes[kind] : ones[kind];
      const base = three ? ones[kind] : undefined;
      const ratios = base ? runs.map((run, index) => run.rps / base[index]!.rps) : [];
      const middle = [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
      const ratio = base ? median(ratios) : undefined;
      return {
        group,
        name,
        detail: `rounds ${runs.map((run) => Math.round(run.rps).toLocaleString('en-US')).join(', ')}${base ? `; each ÷ its one-process run ${ratios.map((r) => r.toFixed(2)).join(', ')}` : ''}; median round: ${detail(middle)}`,
        value: middle.rps,
        unit: 'req/s',
        ...(ratio === undefined ? {} : { ratio, ratioLabel: '3 ÷ 1, median', target: '≥ 0.8', ok: ratio >= 0.8 }),
      };
    };
    const reference = await referenceRow(log);
    log(`postgres: a process joining a store of ${JOIN_USERS.toLocaleString('en-US')} users…`);
    const joined = await joinRows(server, log);
    return [
      ...joined,
      row(`GET /v1/users/:id, 1 process (${cores} cores shared with PostgreSQL and the load, ${WRK ? 'wrk' : 'autocannon'})`, 'get'),
      row('GET /v1/users/:id, 3 processes', 'get', true),
      row('POST /v1/apps, 1 tenant, 1 process', 'post1'),
      row('POST /v1/apps, 1 tenant, 3 processes', 'post1', true),
      row('POST /v1/apps, 3 tenants, 1 process', 'post3'),
      row('POST /v1/apps, 3 tenants, 3 processes', 'post3', true),
      row('POST /v1/apps, 3 tenants, 3 processes behind a balancer that routes by API key', 'post3ByKey', true),
      reference,
    ];
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await server.stop();
    rmSync(dirname(fixture), { recursive: true, force: true });
  }
}
