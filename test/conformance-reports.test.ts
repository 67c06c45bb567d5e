/**
 * The console, JSON and JUnit reports of one `svc conformance` run agree: the
 * header, the areas and the summary count the same set — the selected checks, each once —
 * in the same words, with a baseline (a known failure, a stale entry) and with --bail. A
 * fault injected through the control plane makes a real check fail.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { conformanceTarget } from '../src/test-support/conformance-target.js';
import { wellFormedXml } from '../src/test-support/xml.js';

const target = conformanceTarget('svc-conformance-reports-');

const CHECKS = 'apps.list,apps.create,apps.unknown-id';

/** The next GET /apps answers 500, so apps.list (the first of CHECKS to run) fails. */
async function breakAppsList(): Promise<void> {
  const fault = await target.svc.request('POST', '/_emulator/faults', { body: { method: 'GET', path: '/apps', status: 500, count: 1 } });
  expect(fault.status).toBeLessThan(300);
}

interface JsonReport {
  counts: Record<string, number>;
  results: Array<{ id: string; outcome: string; reason?: string }>;
}

async function run(name: string, extra: string[]) {
  const result = await target.runWithReports(name, ['--only', CHECKS, ...extra], 30_000);
  const xml = result.junit();
  expect(wellFormedXml(xml)).toBe(true);
  return { ...result, xml, json: result.report<JsonReport>() };
}

/** Writes a baseline file of these entries in the tests' dir and answers its path. */
function writeBaseline(name: string, entries: Array<{ id: string; reason: string }>): string {
  const path = join(target.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ entries }));
  return path;
}

describe('the reports of one run agree', () => {
  it('with a baseline: a known failure and a stale entry, counted once each among the checks', async () => {
    const baseline = writeBaseline('baseline', [
      { id: 'apps.list', reason: 'ticket 12' },
      { id: 'apps.create', reason: 'was broken once' },
    ]);
    await breakAppsList();
    const { code, stdout, xml, json } = await run('baseline', ['--baseline', baseline]);
    expect(code, stdout).toBe(1);

    expect(stdout).toMatch(/run \w+: 3 checks\n/);
    expect(stdout).toMatch(/\n {2}apps {2}1 passed, 1 failed, 0 skipped, 1 known failure {2}/);
    expect(stdout).toMatch(/Summary: 1 passed, 1 failed, 0 skipped, 1 known failure of 3 checks in /);
    expect(stdout).toContain('apps.create passes now; remove it from the baseline (it says: was broken once)');

    expect(json.counts).toEqual({ total: 3, passed: 1, failed: 1, skipped: 0, expected: 1, error: 0 });
    expect(json.results.map((r) => [r.id, r.outcome])).toEqual([
      ['apps.list', 'expected'],
      ['apps.create', 'failed'],
      ['apps.unknown-id', 'passed'],
    ]);

    expect(xml).toMatch(/<testsuites name="svc conformance \w+" tests="3" failures="1" errors="0" skipped="1"/);
    expect(xml).toContain('<testsuite name="conformance.apps" tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('<skipped message="known failure (baseline: ticket 12)"/>');
    expect(xml).toContain('<failure message="apps.create passes now; remove it from the baseline (it says: was broken once)" type="apps.create">');
  }, 40_000);

  it('with --bail: the checks the run did not reach are counted, as not run', async () => {
    await breakAppsList();
    // One check at a time, so the two after the failure are never started (runner.test.ts has --bail with checks running at once).
    const { code, stdout, xml, json } = await run('bail', ['--bail', '--concurrency', '1']);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/run \w+: 3 checks\n/);
    expect(stdout).toMatch(/Summary: 0 passed, 1 failed, 2 skipped \(2 not run: --bail stopped the run at the first failure\) of 3 checks in /);
    expect(json.counts).toEqual({ total: 3, passed: 0, failed: 1, skipped: 2, expected: 0, error: 0 });
    expect(json.results.slice(1).map((r) => r.reason)).toEqual([
      'not run: --bail stopped the run at the first failure',
      'not run: --bail stopped the run at the first failure',
    ]);
    expect(xml).toMatch(/<testsuites name="svc conformance \w+" tests="3" failures="1" errors="0" skipped="2"/);
  }, 40_000);

  it('refuses, before running anything, a baseline entry that names no check', async () => {
    const baseline = writeBaseline('unknown', [
      { id: 'apps.list', reason: 'ticket 12' },
      { id: 'apps.gone', reason: 'renamed' },
    ]);
    const result = await runCli(['conformance', ...target.args, '--only', 'apps.list', '--baseline', baseline]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the baseline ${baseline} lists apps.gone, which is no check (see --list); remove the entry`);
    expect(result.stdout).toBe('');
  });
});
