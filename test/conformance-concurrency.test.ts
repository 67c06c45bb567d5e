/**
 * The suite with checks running at once, over real HTTP: the reports list checks in
 * catalogue order whatever order they finish in, and a run's outcomes do not change from one
 * run to the next; the checks that move the emulator clock never overlap a check that uses it
 * (seen by a proxy that records when each advance is sent); a 429 with Retry-After to one check
 * holds every check back; and --bail and Ctrl-C leave nothing named with the run id behind.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/conformance/catalogue.js';
import { preflight } from '../src/conformance/preflight.js';
import { runSuite } from '../src/conformance/runner.js';
import { conflicts } from '../src/conformance/schedule.js';
import { selectChecks } from '../src/conformance/select.js';
import type { Check } from '../src/conformance/types.js';
import { startBrokenServer } from '../src/test-support/broken-server.js';
import { runCli, SVC_BIN } from '../src/test-support/cli.js';
import { conformanceTarget } from '../src/test-support/conformance-target.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';

const target = conformanceTarget('svc-conformance-concurrency-');

interface JsonReport {
  runId: string;
  concurrency: number;
  results: Array<{ id: string; outcome: string }>;
  cleanup: Array<{ ok: boolean }>;
}

/** What a run leaves of its own, by its run id: apps, webhooks to its receiver, keys still active; and the tenant as it is. */
async function leftBehind(runId: string) {
  const { svc } = target;
  const apps = (await svc.request('GET', `/apps?search=${runId}`)).body.total as number;
  const webhooks = ((await svc.request('GET', '/webhooks')).body.data as Array<{ url: string }>).filter((h) => h.url.includes(`/conformance/${runId}/`)).length;
  const keys = ((await svc.request('GET', '/api-keys')).body.data as Array<{ name: string; status: string }>).filter(
    (k) => k.name.includes(runId) && k.status !== 'revoked',
  ).length;
  const tenant = (await svc.request('GET', '/tenant')).body.data as { name: string; settings: unknown };
  return { apps, webhooks, keys, tenant: { name: tenant.name, settings: tenant.settings } };
}

const catalogueOrder = (ids: string[]): string[] => CATALOGUE.map((check) => check.id).filter((id) => ids.includes(id));

describe('svc conformance with checks running at once', () => {
  it('lists the results in catalogue order in every report at --concurrency 8, with the same outcomes run after run', async () => {
    const outcomes: Array<Array<[string, string]>> = [];
    for (const round of [1, 2]) {
      const result = await target.runWithReports(`order-${round}`, ['--second-api-key', GLOBEX_KEY, '--concurrency', '8'], 60_000);
      expect(result.code, result.stdout.slice(-3000)).toBe(0);
      const report = result.report<JsonReport>();
      expect(report.concurrency).toBe(8);
      const ids = report.results.map((r) => r.id);
      expect(ids.length).toBeGreaterThan(200);
      expect(ids).toEqual(catalogueOrder(ids));

      // The console: one line per check, numbered 1…N in the same order.
      const lines = [...result.stdout.matchAll(/^ {2}\[ *(\d+)\/(\d+)\] . (\S+) /gm)];
      expect(lines.map((m) => m[3])).toEqual(ids);
      expect(lines.map((m) => Number(m[1]))).toEqual(ids.map((_, i) => i + 1));

      // JUnit: a suite per area, each in catalogue order.
      const testcases = [...result.junit().matchAll(/<testcase classname="conformance\.([^"]+)" name="([^:"]+):/g)].map((m) => [m[1]!, m[2]!] as const);
      const areas = [...new Set(testcases.map(([area]) => area))];
      expect(testcases.map(([, id]) => id)).toEqual(
        areas.flatMap((area) => ids.filter((id) => report.results.find((r) => r.id === id) && CATALOGUE.find((c) => c.id === id)!.tags[0] === area)),
      );

      outcomes.push(report.results.map((r) => [r.id, r.outcome]));
      expect(await leftBehind(report.runId)).toMatchObject({ apps: 0, webhooks: 0, keys: 0 });
    }
    // A skip of the rate-limit check (a machine too loaded to outrun the refill) is the one difference allowed.
    const steady = (list: Array<[string, string]>) => list.filter(([id]) => id !== 'rate-limits.429');
    expect(steady(outcomes[1]!)).toEqual(steady(outcomes[0]!));
  }, 150_000);

  it('never moves the clock while another check that uses it runs: a proxy records every advance', async () => {
    const advances: Array<{ by: string; sent: number; answered: number }> = [];
    const pending = new Map<string, number>();
    const broken = await startBrokenServer(target.svc.emulator.rt, {
      request: (q) => void (q.method === 'POST' && q.path === '/_emulator/clock/advance' && pending.set(q.body, performance.now())),
      response: (q) => {
        if (q.method !== 'POST' || q.path !== '/_emulator/clock/advance') return;
        advances.push({ by: (JSON.parse(q.body) as { by: string }).by, sent: pending.get(q.body) ?? 0, answered: performance.now() });
      },
    });
    const runs: Array<{ check: Check; start: number; end: number }> = [];
    const starts = new Map<string, number>();
    try {
      // The suite reaches the emulator through the proxy.
      const proxied = { baseUrl: broken.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 10_000 };
      const { profile } = await preflight(proxied, 'auto');
      const selected = selectChecks(CATALOGUE, { profile, includeSlow: false, readOnly: false, only: [], skip: [], hasSecondKey: true });
      const report = await runSuite({
        target: proxied,
        selected,
        profile,
        concurrency: 8,
        receiver: { host: '127.0.0.1', port: 0 },
        listener: {
          onCheckStart: (check) => void starts.set(check.id, performance.now()),
          onCheckEnd: (result) => {
            const check = CATALOGUE.find((c) => c.id === result.id)!;
            runs.push({ check, start: starts.get(result.id)!, end: starts.get(result.id)! + result.durationMs });
          },
        },
      });
      expect(
        report.results.filter((r) => r.outcome !== 'passed' && !(r.id === 'rate-limits.429' && r.outcome === 'skipped')).map((r) => `${r.id}: ${r.reason}`),
      ).toEqual([]);
    } finally {
      await broken.close();
    }

    // Durations are whole milliseconds: a check may seem to end up to a millisecond late.
    const overlap = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end - 1 && b.start < a.end - 1;
    const clashes = runs.flatMap((a, i) =>
      runs
        .slice(i + 1)
        .filter((b) => conflicts(a.check, b.check) && overlap(a, b))
        .map((b) => `${a.check.id} with ${b.check.id}`),
    );
    expect(clashes).toEqual([]);

    const moves = advances.filter((a) => a.by !== '1s');
    expect(moves.length).toBeGreaterThanOrEqual(10);
    for (const advance of advances) {
      const during = runs.filter((r) => r.check.uses?.clock !== undefined && r.start <= advance.sent && advance.answered <= r.end + 1);
      const movers = during.filter((r) => r.check.uses?.clock === 'moves');
      const holders = during.filter((r) => r.check.uses?.clock === 'holds');
      if (advance.by === '1s' && during.some((r) => r.check.id === 'emulator.clock')) {
        // emulator.clock moves it a second beside the checks that only hold it.
        expect(movers.map((r) => r.check.id)).toEqual([]);
      } else if (movers.length > 0) {
        // A check that moves the clock itself runs with no other that uses it.
        expect(
          during.map((r) => r.check.id),
          `advance ${advance.by}`,
        ).toEqual(movers.map((r) => r.check.id).slice(0, 1));
      } else {
        // The clock lane moves it for the checks that step it, all waiting, while none holds it.
        expect(
          holders.map((r) => r.check.id),
          `advance ${advance.by}`,
        ).toEqual([]);
        expect(during.length, `advance ${advance.by}`).toBeGreaterThan(0);
      }
    }
    const rateLimit = runs.find((r) => r.check.id === 'rate-limits.429')!;
    expect(runs.filter((r) => r !== rateLimit && overlap(r, rateLimit)).map((r) => r.check.id)).toEqual([]);
  }, 120_000);

  it('holds every check back while one sits out a 429 with Retry-After', async () => {
    const arrivals: Array<{ path: string; at: number }> = [];
    let limitedAt = 0;
    const server: Server = createServer((req, res) => {
      arrivals.push({ path: req.url ?? '', at: performance.now() });
      if (req.url === '/v1/first' && limitedAt === 0) {
        limitedAt = performance.now();
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"slow down","code":"rate_limited","details":[]}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    let paused!: () => void;
    const backedOff = new Promise<void>((resolve) => (paused = resolve));
    const waits: number[] = [];
    const check = (id: string, path: string, wait: boolean): Check => ({
      id,
      tags: ['backoff'],
      description: id,
      spec: 'part 7 (429)',
      profile: 'spec',
      creates: false,
      run: async (ctx) => {
        // The others ask only once the suite has seen the 429, so they would go at once without a shared pause.
        if (wait) await backedOff;
        const result = await ctx.client.request('GET', path);
        if (result.status !== 200) throw new Error(`${path} answered ${result.status}`);
      },
    });
    try {
      const report = await runSuite({
        target: { baseUrl: url, apiKey: 'sk_test_any', timeoutMs: 5_000 },
        selected: [check('backoff.first', '/first', false), check('backoff.second', '/second', true), check('backoff.third', '/third', true)].map((c) => ({
          check: c,
        })),
        profile: 'spec',
        concurrency: 3,
        receiver: { host: '127.0.0.1', port: 0 },
        listener: {
          onBackoff: (_url, ms) => {
            waits.push(ms);
            paused();
          },
        },
      });
      expect(report.results.map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(waits).toEqual([1_000]);
    // The run reads the target's document at its end to report coverage; that read is not a check's.
    const after = arrivals.filter((a) => a.at > limitedAt && a.path !== '/v1/openapi.json');
    expect(after.map((a) => a.path).sort()).toEqual(['/v1/first', '/v1/second', '/v1/third']);
    // Every request after the 429 (the retry and the two others) waited out the second it asked for.
    for (const arrival of after) expect(arrival.at - limitedAt, arrival.path).toBeGreaterThanOrEqual(950);
  });

  it('on Ctrl-C with checks running at once stops, removes everything named with the run id, and exits 130', async () => {
    const before = await leftBehind('none');
    // The slow check waits a minute for a real-time retry, so the run is surely under way when interrupted.
    const child = spawn(process.execPath, [SVC_BIN, 'conformance', ...target.args, '--concurrency', '8', '--include-slow'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let runId = '';
    for (let i = 0; i < 500 && runId === ''; i += 1) {
      runId = /run (\w+):/.exec(stdout)?.[1] ?? '';
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Once the slow check has registered its webhook and the other checks have had a moment to make theirs.
    for (let i = 0; i < 500 && (await leftBehind(runId)).webhooks === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await leftBehind(runId)).webhooks).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toMatch(/Summary: .* \(\d+ not run: the run was interrupted\) of \d+ checks/);
    expect(stdout).toMatch(/Cleanup: removed (\d+) of \1 records/);
    expect(await leftBehind(runId)).toEqual({ ...before, apps: 0, webhooks: 0, keys: 0 });
  }, 60_000);

  it('with --bail at --concurrency 8 stops at a failure, counts what it did not start, and removes everything', async () => {
    const before = await leftBehind('none');
    // The next POST /webhooks/:id/test fails: one of the checks that send a test event goes red.
    const fault = await target.svc.request('POST', '/_emulator/faults', { body: { method: 'POST', path: '/webhooks/*/test', status: 500, count: 1 } });
    expect(fault.status).toBeLessThan(300);
    const result = await runCli(['conformance', ...target.args, '--concurrency', '8', '--skip', 'rate-limits', '--bail', '--reporter', 'json'], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stdout.slice(-2000)).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.results.filter((r) => r.outcome === 'failed').length).toBeGreaterThanOrEqual(1);
    expect(report.results.some((r) => r.outcome === 'skipped')).toBe(true);
    expect(report.cleanup.every((c) => c.ok)).toBe(true);
    expect(await leftBehind(report.runId)).toEqual({ ...before, apps: 0, webhooks: 0, keys: 0 });
  }, 90_000);
});
