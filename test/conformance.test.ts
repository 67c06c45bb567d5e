/**
 * `svc conformance` against `svc serve`'s emulator, as a real process over real HTTP: every
 * check passes, the reports are written, and usage, reachability and key problems exit 2.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedOperations, neverExercised, type Coverage } from '../src/conformance/coverage.js';
import { OPERATIONS } from '../src/operations/index.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { runCli, SVC_BIN } from '../src/test-support/cli.js';
import { conformanceTarget } from '../src/test-support/conformance-target.js';
import { wellFormedXml } from '../src/test-support/xml.js';

const target = conformanceTarget('svc-conformance-');

describe('svc conformance against the emulator', () => {
  it('passes every check, well under a minute, and writes JUnit and JSON reports', async () => {
    const started = Date.now();
    const result = await target.runWithReports('conformance', ['--second-api-key', GLOBEX_KEY], 60_000);
    const failures = result.stdout.split('\n').filter((line) => line.includes('✗'));
    expect(failures, result.stdout.slice(-4000)).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(result.stdout).toMatch(/Summary: \d+ passed, 0 failed, \d+ skipped of \d+ checks/);

    const report = result.report<{
      counts: Record<string, number>;
      profile: string;
      cleanup: Array<{ ok: boolean }>;
      results: Array<{ id: string; outcome: string }>;
    }>();
    expect(report.profile).toBe('emulator');
    expect(report.counts['total']).toBeGreaterThan(200);
    expect(report.counts['failed']).toBe(0);
    expect(report.counts['error']).toBe(0);
    // Only the rate-limit check may skip: on a machine too loaded to outrun the refill it proves nothing either way.
    expect(
      report.results
        .filter((r) => r.outcome === 'skipped')
        .map((r) => r.id)
        .filter((id) => id !== 'rate-limits.429'),
    ).toEqual([]);
    expect(report.cleanup.every((entry) => entry.ok)).toBe(true);

    const xml = result.junit();
    expect(wellFormedXml(xml)).toBe(true);
    expect(xml).toMatch(
      new RegExp(`<testsuites name="svc conformance \\w+" tests="${report.counts['total']}" failures="0" errors="0" skipped="${report.counts['skipped']}"`),
    );
    expect(xml).toContain('<testcase classname="conformance.webhooks" name="webhooks.user-created.signature:');

    // Coverage: the table holds the document both ways, and on the emulator every operation is exercised.
    const { coverage } = result.report<{ coverage: Coverage }>();
    const document = await (await fetch(`${target.svc.baseUrl}/openapi.json`)).json();
    const documented = documentedOperations(document);
    expect(coverage.operations.map((o) => [o.operationId, o.method, o.path, o.documented])).toEqual(
      documented.map((o) => [o.operationId, o.method, o.path, o.documented]),
    );
    expect(new Set(coverage.operations.map((o) => o.operationId))).toEqual(new Set(Object.keys(OPERATIONS)));
    expect(neverExercised(coverage).map((o) => o.operationId)).toEqual([]);
    // The events the checks cause at webhooks of their own; api_key.created reaches one only when
    // a key happens to be made while webhooks.listed-state's webhook listens for it.
    expect(coverage.events).toEqual(expect.arrayContaining(['user.created', 'api_key.revoked', 'tx.completed']));
    expect(result.stdout).toMatch(/Coverage: (\d+) of \1 operations, \d+ of \d+ documented \(operation, status\) pairs \(\d+\.\d %\)/);
    expect(xml).toContain('<property name="coverage.operation.createApp" value="POST /v1/apps documented ');
  }, 90_000);

  it('fails a run whose coverage is below --min-coverage, saying so', async () => {
    const result = await runCli(['conformance', ...target.args, '--only', 'tenant', '--min-coverage', '50'], { timeoutMs: 30_000 });
    expect(result.code, result.stdout.slice(-2000) + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/Coverage: \d+ of \d+ operations, .* \(\d+\.\d %\), \d+ event types delivered; below --min-coverage 50 %/);
    expect(result.stdout).toMatch(/never exercised: .*createApp \(POST \/v1\/apps\)/);
    expect((await runCli(['conformance', ...target.args, '--only', 'tenant', '--min-coverage', '101'], { timeoutMs: 30_000 })).code).toBe(2);
  }, 60_000);

  it('removes what it created: no app of the run is left; --url may be the origin alone, as for webhook listen --register', async () => {
    const result = await runCli(['conformance', '--url', target.svc.origin, '--api-key', ACME_KEY, '--only', 'apps', '--reporter', 'json'], {
      timeoutMs: 30_000,
    });
    expect(result.code, result.stdout.slice(-2000) + result.stderr).toBe(0);
    const { runId, baseUrl } = JSON.parse(result.stdout) as { runId: string; baseUrl: string };
    expect(baseUrl).toBe(target.svc.baseUrl);
    const left = await target.svc.request('GET', `/apps?search=${runId}`);
    expect(left.body.total).toBe(0);
  }, 40_000);

  it('on Ctrl-C stops, removes what the run created, and exits 130', async () => {
    const child = spawn(process.execPath, [SVC_BIN, 'conformance', ...target.args, '--only', 'webhooks.retry-after-one-minute', '--include-slow'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const runId = await new Promise<string>((resolve) => {
      const poll = setInterval(() => {
        const match = /run (\w+):/.exec(stdout);
        if (match) {
          clearInterval(poll);
          resolve(match[1]!);
        }
      }, 50);
    });
    // The check has registered its webhook and waits a minute for the retry.
    const registered = async (): Promise<boolean> => JSON.stringify((await target.svc.request('GET', '/webhooks')).body).includes(`/conformance/${runId}/`);
    for (let i = 0; i < 100 && !(await registered()); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await registered()).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toContain('interrupted');
    expect(stdout).toContain('Cleanup: removed 1 of 1 records');
    expect(await registered()).toBe(false);
  }, 20_000);

  it('--read-only runs only checks that create nothing, and creates nothing', async () => {
    const before = (await target.svc.request('GET', '/apps')).body.total as number;
    const usersBefore = (await target.svc.request('GET', '/users')).body.total as number;
    const result = await runCli(['conformance', ...target.args, '--read-only', '--reporter', 'json'], { timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { results: Array<{ id: string }> };
    expect(report.results.map((r) => r.id)).not.toContain('apps.create');
    expect(report.results.map((r) => r.id)).toContain('auth.missing-key.apps.list');
    expect((await target.svc.request('GET', '/apps')).body.total).toBe(before);
    expect((await target.svc.request('GET', '/users')).body.total).toBe(usersBefore);
  }, 40_000);

  it('--profile spec leaves out the emulator checks; isolation checks skip without a second key', async () => {
    const result = await runCli(['conformance', ...target.args, '--profile', 'spec', '--reporter', 'json'], { timeoutMs: 60_000 });
    expect(result.code, result.stdout.slice(-2000)).toBe(0);
    const report = JSON.parse(result.stdout) as { profile: string; results: Array<{ id: string; profile: string; outcome: string; reason?: string }> };
    expect(report.profile).toBe('spec');
    expect(report.results.every((r) => r.profile === 'spec')).toBe(true);
    const isolation = report.results.find((r) => r.id === 'isolation.apps');
    expect(isolation?.outcome).toBe('skipped');
    expect(isolation?.reason).toContain('--second-api-key');
  }, 70_000);

  it('--list prints one line per check starting with its id, then tags, description and spec; nothing runs', async () => {
    const result = await runCli(['conformance', '--list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(200);
    expect(lines.find((line) => line.startsWith('webhooks.retry-after-one-minute\t'))).toMatch(
      /^webhooks\.retry-after-one-minute\twebhooks,retries,slow\t.+\t\(spec: part 3\.1/,
    );
  });

  it('--plan says what a run would write, without writing', async () => {
    const before = (await target.svc.request('GET', '/apps')).body.total as number;
    const result = await runCli(['conformance', ...target.args, '--plan']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('apps.create: apps named conf-<run>-… (deleted at the end)');
    expect(result.stdout).toContain('kept: the spec has no way to delete a user');
    expect(result.stdout).toContain(
      "The tenant's settings sessionTtl, guestTtl and mfaFreshness are set to 24h, 24h and 10m for the run where they differ, and put back at the end.",
    );
    expect((await target.svc.request('GET', '/apps')).body.total).toBe(before);
  });

  it.each([
    { name: 'no URL', args: ['conformance', '--api-key', ACME_KEY], text: 'give the deployment with --url' },
    {
      name: 'a URL without a scheme',
      args: ['conformance', '--url', '127.0.0.1:4010', '--api-key', ACME_KEY],
      text: 'does not start with http:// or https://',
    },
    { name: 'an unknown selector', args: ['conformance', '--list', '--only', 'nosuchcheck'], text: 'no check has the id or tag "nosuchcheck"' },
    { name: 'a bad profile', args: ['conformance', '--list', '--profile', 'strict'], text: '--profile must be spec, emulator or auto' },
    { name: 'no check at a time', args: ['conformance', '--list', '--concurrency', '0'], text: '--concurrency must be a whole number from 1 to 64, got "0"' },
    {
      name: 'too many checks at a time',
      args: ['conformance', '--list', '--concurrency', '65'],
      text: '--concurrency must be a whole number from 1 to 64, got "65"',
    },
    {
      name: 'two reporters on stdout',
      args: ['conformance', '--url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--reporter', 'json', '--reporter', 'junit'],
      text: 'only one reporter may write to stdout',
    },
    { name: 'an unreachable target', args: ['conformance', '--url', 'http://127.0.0.1:1/v1', '--api-key', ACME_KEY], text: 'cannot reach the target' },
  ])('exits 2 on $name', async ({ args, text }) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(text);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 at once, as a configuration error, when the target rejects the key', async () => {
    const result = await runCli(['conformance', '--url', target.svc.baseUrl, '--api-key', 'sk_test_notAKeyOfThisDeployment000000000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('configuration: the target rejects --api-key');
    expect(result.stdout).not.toContain('✗');
  });

  it('refuses a baseline entry without a reason', async () => {
    const noReason = join(target.dir, 'no-reason.json');
    writeFileSync(noReason, JSON.stringify({ entries: [{ id: 'apps.list', reason: ' ' }] }));
    const refused = await runCli(['conformance', ...target.args, '--baseline', noReason]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('every baseline entry needs a written reason');
  });
});
