/**
 * The conformance suite's wall time: `svc conformance` against a fresh `svc serve`, once on
 * loopback and once through a proxy that adds CONFORMANCE_DELAY_MS to every answer, as a
 * deployment far away would. BENCH_CONFORMANCE=0 leaves this section out (it takes about as
 * long as the rest of the bench while the suite runs its checks one after another).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACME_KEY } from './data.js';
import type { Row } from './report.js';
import { SVC_BIN, startLatencyProxy, startSvc, withServer } from './servers.js';

export const CONFORMANCE_DELAY_MS = 150;
export const CONFORMANCE_ENABLED = process.env['BENCH_CONFORMANCE'] !== '0';
/** A run that has not ended by then is stopped and reported as such. */
const RUN_LIMIT_MS = 300_000;

interface SuiteRun {
  seconds: number;
  exitCode: number | null;
  counts?: { total: number; passed: number; failed: number; skipped: number; error: number };
}

/** Runs the suite against `baseUrl` (ending in /v1) and times it from spawn to exit. */
async function runSuite(baseUrl: string): Promise<SuiteRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [SVC_BIN, 'conformance', '--url', baseUrl, '--api-key', ACME_KEY, '--reporter', 'json'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGINT'), RUN_LIMIT_MS);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  try {
    const report = JSON.parse(stdout) as { counts: SuiteRun['counts'] };
    return { seconds, exitCode, ...(report.counts ? { counts: report.counts } : {}) };
  } catch {
    return { seconds, exitCode };
  }
}

function detail(run: SuiteRun): string {
  const c = run.counts;
  const counts = c ? `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${c.error ? `, ${c.error} errors` : ''} of ${c.total}` : 'no report';
  return `exit ${run.exitCode ?? 'killed'}, ${counts}`;
}

/** The targets: a whole run on loopback, and through the latency proxy, as a far deployment. */
const LOOPBACK_TARGET_S = 2.5;
const PROXIED_TARGET_S = 12;

/** Two rows: the suite on loopback (target ≤ 2.5 s), and through the latency proxy (target ≤ 12 s). */
export async function conformanceRows(log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  for (const delayMs of [0, CONFORMANCE_DELAY_MS]) {
    log(`conformance suite ${delayMs ? `through the proxy (+${delayMs} ms an answer)` : 'on loopback'}…`);
    // A fresh data dir each time: the suite creates (and removes) its records in the fixture's tenants.
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-conformance-'));
    try {
      const run = await withServer(startSvc(dir, []), (svc) =>
        delayMs === 0 ? runSuite(`${svc.url}/v1`) : withServer(startLatencyProxy(svc.url, delayMs), (proxy) => runSuite(`${proxy.url}/v1`)),
      );
      rows.push(
        delayMs === 0
          ? {
              group: 'conformance',
              name: 'svc conformance against svc serve on loopback',
              value: run.seconds,
              unit: 's',
              detail: detail(run),
              target: `≤ ${LOOPBACK_TARGET_S} s`,
              ok: run.seconds <= LOOPBACK_TARGET_S && run.exitCode === 0,
            }
          : {
              group: 'conformance',
              name: `svc conformance through a proxy adding ${delayMs} ms to every answer`,
              value: run.seconds,
              unit: 's',
              detail: detail(run),
              target: `≤ ${PROXIED_TARGET_S} s`,
              ok: run.seconds <= PROXIED_TARGET_S && run.exitCode === 0,
            },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
