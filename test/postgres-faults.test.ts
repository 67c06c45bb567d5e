/**
 * The shared store under the faults a team deployment meets, Jepsen-style: three
 * `svc serve` processes on one real PostgreSQL, each through its own loopback TCP proxy, with
 * writers in two tenants and webhook deliveries running throughout. The fault schedule: a
 * database restart, a process paused with SIGSTOP, every connection of one process cut, one
 * process partitioned (its proxy blackholed), one killed with SIGKILL and replaced. Then the
 * checker: every acknowledged write is readable through every process, every acknowledged
 * user's event arrived (repeats only for attempts cut mid-flight, counted), one clock, one DLQ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, check, deliveredUsers, startWriters, type WriteOp } from '../src/test-support/fault-workload.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../src/test-support/postgres.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';
import { startTcpProxy, type TcpProxy } from '../src/test-support/tcp-proxy.js';

const postgres = postgresAvailability();
const HOLD = '2s';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Real milliseconds until `origin` acknowledges a write again, polled every 100 ms, up to `limitMs`. */
async function recoveryMs(origin: string, limitMs: number): Promise<number> {
  const start = Date.now();
  for (let n = 0; Date.now() - start < limitMs; n++) {
    const answer = await call(origin, 'POST', '/v1/apps', { key: ACME_KEY, body: { name: `recovery ${start} ${n}` }, timeoutMs: 10_000 });
    if (answer.status === 201) return Date.now() - start;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

describe.skipIf(!postgres.available)('a shared PostgreSQL store under faults', () => {
  let server: TestPostgres;
  let url: string;
  const proxies: TcpProxy[] = [];
  const processes: ServeProcess[] = [];
  let receiver: TestReceiver;
  const figures: Record<string, number | string> = {};

  const start = async (index: number): Promise<ServeProcess> => {
    const proxied = url.replace(`:${server.port}/`, `:${proxies[index]!.port}/`);
    return startServeProcess(['--store', proxied, '--delivery-timeout', '2s', '--store-timeout', HOLD, '--rate-limit', 'off'], undefined, 30_000);
  };

  beforeAll(async () => {
    await ensureBuilt();
    server = await startPostgres();
    url = await server.database();
    for (let i = 0; i < 3; i++) proxies.push(await startTcpProxy(server.port));
    for (let i = 0; i < 3; i++) processes.push(await start(i));
    receiver = await startReceiver();
    for (const key of [ACME_KEY, GLOBEX_KEY]) {
      const hook = await call(processes[0]!.origin, 'POST', '/v1/webhooks', { key, body: { url: receiver.url, events: ['user.created'] } });
      expect(hook.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    for (const process of processes) process.child.kill('SIGKILL');
    await Promise.all(processes.map((process) => process.exited));
    for (const proxy of proxies) await proxy.close();
    await receiver?.close();
    await server?.stop();
    console.log(`fault test figures: ${JSON.stringify(figures)}`);
  });

  it('keeps every acknowledged write and delivers every event through a restart, a pause, a cut, a partition and a kill', async () => {
    const origins = (): string[] => processes.filter((process) => process.child.exitCode === null && process.child.signalCode === null).map((p) => p.origin);
    const writers = startWriters(origins, [ACME_KEY, GLOBEX_KEY], 6);
    const during = (from: number, to: number, exclude?: number): WriteOp[] =>
      writers.ops.filter((op) => op.startedAt >= from && op.startedAt <= to && op.process !== exclude);
    try {
      await sleep(1_500);

      // 1. The database restarts. Meanwhile every process says it is not ready, and a clock move is refused.
      const clockBefore = (await call<{ data: { now: string } }>(processes[1]!.origin, 'GET', '/_emulator/clock')).body.data;
      server.halt();
      await sleep(300);
      const ready = await Promise.all(processes.map((process) => call<{ error?: string }>(process.origin, 'GET', '/readyz')));
      expect(
        ready.map((answer) => answer.status),
        processes.map((process) => process.stderr().slice(-2000)).join('\n'),
      ).toEqual([503, 503, 503]);
      expect(ready[0]!.body.error).toMatch(/Not ready: .*database/);
      const moved = await call(processes[0]!.origin, 'POST', '/_emulator/clock/advance', { body: { by: '1d' } });
      expect(moved.status).toBe(503);
      await sleep(1_500);
      server.resume();
      const restartRecovery = Math.max(...(await Promise.all(processes.map((process) => recoveryMs(process.origin, 20_000)))));
      figures['restart recovery ms'] = restartRecovery;
      expect(restartRecovery).toBeLessThan(5_000);
      // The refused move stayed refused everywhere: no process runs a day ahead.
      const clocks = await Promise.all(processes.map((process) => call<{ data: { now: string } }>(process.origin, 'GET', '/_emulator/clock')));
      for (const clock of clocks) {
        expect(clock.status, JSON.stringify(clock.body)).toBe(200);
        expect(Date.parse(clock.body.data.now) - Date.parse(clockBefore.now)).toBeLessThan(60_000);
      }
      expect((await Promise.all(processes.map((process) => call(process.origin, 'GET', '/readyz')))).map((answer) => answer.status)).toEqual([200, 200, 200]);

      // 2. One process is paused: the others' writes wait for it at most about the hold time.
      const paused = processes[2]!;
      const pausedAt = Date.now();
      paused.child.kill('SIGSTOP');
      await sleep(6_000);
      paused.child.kill('SIGCONT');
      const others = during(pausedAt + 500, pausedAt + 5_000, 2).filter((op) => op.status === 201);
      expect(others.length).toBeGreaterThan(10);
      figures['slowest write while a process was paused ms'] = Math.max(...others.map((op) => op.ms));
      expect(Math.max(...others.map((op) => op.ms))).toBeLessThan(5_000);
      figures['pause recovery ms'] = await recoveryMs(paused.origin, 20_000);
      expect(figures['pause recovery ms']).toBeLessThan(5_000);

      // 3. Every connection of one process is cut: it connects again on its own.
      proxies[1]!.cut();
      figures['cut recovery ms'] = await recoveryMs(processes[1]!.origin, 20_000);
      expect(figures['cut recovery ms']).toBeLessThan(5_000);

      // 4. One process is partitioned from the database: it refuses writes in bounded time and says so; the others go on.
      proxies[0]!.blackhole();
      const partitionedAt = Date.now();
      const refused = await call<{ code?: string }>(processes[0]!.origin, 'POST', '/v1/apps', { key: ACME_KEY, body: { name: `dark ${Date.now()}` } });
      figures['partitioned write answered in ms'] = Date.now() - partitionedAt;
      expect(figures['partitioned write answered in ms']).toBeLessThan(5_000);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('store_unavailable');
      expect((await call(processes[0]!.origin, 'GET', '/readyz')).status).toBe(503);
      await sleep(1_000);
      proxies[0]!.heal();
      const partitionOthers = during(partitionedAt, Date.now(), 0).filter((op) => op.status === 201);
      expect(partitionOthers.length).toBeGreaterThan(10);
      figures['partition recovery ms'] = await recoveryMs(processes[0]!.origin, 20_000);
      expect(figures['partition recovery ms']).toBeLessThan(5_000);

      // 5. One process is killed and another takes its place.
      processes[1]!.child.kill('SIGKILL');
      await processes[1]!.exited;
      processes[1] = await start(1);
      await sleep(1_000);
    } finally {
      await writers.stop();
    }

    // Every event of an acknowledged user arrives: a claim a dead or paused process held lapses, and another makes it.
    const deadline = Date.now() + 60_000;
    const acked = writers.ops.filter((op) => op.status === 201);
    const undelivered = (): boolean => {
      const delivered = deliveredUsers(receiver);
      return acked.some((op) => !delivered.has(op.userId));
    };
    while (Date.now() < deadline && undelivered()) await sleep(250);

    const verdict = await check(writers.ops, origins(), receiver);
    Object.assign(figures, {
      attempted: writers.ops.length,
      acknowledged: verdict.acknowledged,
      refused: writers.ops.filter((op) => op.status === 503).length,
      unanswered: writers.ops.filter((op) => op.status === 0).length,
      lost: verdict.lost.length,
      undelivered: verdict.undelivered.length,
      'events delivered twice': verdict.doubledEvents,
      'extra deliveries': verdict.extraDeliveries,
    });
    expect(verdict.acknowledged).toBeGreaterThan(200);
    expect(verdict.unexpected.map((op) => `${op.status} ${op.code}`)).toEqual([]);
    expect(verdict.lost).toEqual([]);
    expect(verdict.undelivered).toEqual([]);
    // Repeats come only from attempts cut mid-flight (the paused and the killed process's): a handful, never a storm.
    expect(verdict.extraDeliveries).toBeLessThanOrEqual(24);

    // One clock and one DLQ everywhere.
    const clocks = await Promise.all(origins().map((origin) => call<{ data: { now: string; speed: number } }>(origin, 'GET', '/_emulator/clock')));
    const nows = clocks.map((clock) => Date.parse(clock.body.data.now));
    expect(Math.max(...nows) - Math.min(...nows)).toBeLessThan(1_000);
    expect(new Set(clocks.map((clock) => clock.body.data.speed)).size).toBe(1);
    const dlqs = await Promise.all(
      origins().map(async (origin) =>
        JSON.stringify((await call<{ data: Array<{ id: string }> }>(origin, 'GET', '/_emulator/dlq')).body.data.map((d) => d.id).sort()),
      ),
    );
    expect(new Set(dlqs).size).toBe(1);
  }, 240_000);
});

describe.skipIf(postgres.available)('a shared PostgreSQL store under faults', () => {
  it.skip(`skipped: ${postgres.reason}`, () => {});
});
