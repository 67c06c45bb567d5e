/**
 * `svc snapshot …` and the CLI's small stumbles, run as the built binary: snapshots against a
 * real emulator, `svc dlq` pointing to `svc webhook dlq`, `svc openapi` reading SVC_URL, the
 * --cors help, `npx svc` in a checkout never building unseen, and the example being vitest-only.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { BUILD_STAMP, ensureBuilt, ROOT } from '../src/test-support/serve-process.js';

describe('svc snapshot against a running emulator', () => {
  let svc: TestEmulator;
  let url: string[];
  beforeAll(async () => {
    await ensureBuilt();
    svc = await startTestEmulator();
    url = ['--url', svc.origin];
  }, 300_000);
  afterAll(() => svc.close());

  it('saves, lists, restores and deletes; refuses a bad name as usage and an unknown one in one line', async () => {
    const saved = await runCli(['snapshot', 'save', 'cli-one', ...url]);
    expect(saved.stderr).toBe('');
    expect(saved.stdout).toMatch(/^saved cli-one {2}saved .* 2 tenants, \d+ records\n$/);
    await svc.request('POST', '/users', { body: { email: 'after.save@acme.test', name: 'After' } });
    const listed = await runCli(['snapshot', 'list', '--json', ...url]);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((s) => s.name)).toEqual(['cli-one']);
    const restored = await runCli(['snapshot', 'restore', 'cli-one', ...url]);
    expect(restored.stdout).toMatch(/^restored cli-one/);
    expect((await svc.request('GET', '/users?search=after.save')).body.data).toEqual([]);
    expect((await runCli(['snapshot', 'delete', 'cli-one', ...url])).stdout).toBe('deleted cli-one\n');

    const bad = await runCli(['snapshot', 'save', '../x', ...url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: "../x" is not a snapshot name: letters, digits, - _ and . (not first), at most 100\n');
    const unknown = await runCli(['snapshot', 'restore', 'nope', ...url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('snapshot nope not found');
  }, 120_000);

  it('svc openapi fetches from SVC_URL as every command does, and --server still makes it here', async () => {
    const fetched = await runCli(['openapi'], { env: { SVC_URL: `${svc.origin}/v1` } });
    expect(fetched.code).toBe(0);
    expect((JSON.parse(fetched.stdout) as { servers: Array<{ url: string }> }).servers[0]!.url).toContain(svc.origin);
    const made = await runCli(['openapi', '--server', 'http://127.0.0.1:4999'], { env: { SVC_URL: `${svc.origin}/v1` } });
    expect((JSON.parse(made.stdout) as { servers: Array<{ url: string }> }).servers[0]!.url).toContain('http://127.0.0.1:4999');
  });
});

describe('svc stumbles', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it("svc dlq points to svc webhook dlq; a misspelt command keeps commander's suggestion", async () => {
    const dlq = await runCli(['dlq']);
    expect(dlq.code).toBe(2);
    expect(dlq.stderr).toContain("error: unknown command 'dlq'\n(Did you mean svc webhook dlq?)");
    expect((await runCli(['webhoo'])).stderr).toContain('(Did you mean webhook?)');
  });

  it('svc serve --help says a --cors list drops the localhost default', async () => {
    const help = (await runCli(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('A list does not keep the localhost default: it replaces it');
  });

  it('npx svc in a checkout runs the built svc at once: npm exec skips the hidden build of prepare', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-npx-cache-'));
    const built = statSync(BUILD_STAMP).mtimeMs;
    try {
      const { stdout } = await promisify(execFile)('npx', ['--yes', 'svc', '--version'], {
        cwd: ROOT,
        env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
        timeout: 120_000,
      });
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      // Had prepare built, the bundle would be new (every build writes it; tsc may leave dist/cli as it was).
      expect(statSync(BUILD_STAMP).mtimeMs).toBe(built);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 150_000);

  it('the example is vitest-only: no jest configuration or script, every test imports vitest', () => {
    const example = join(ROOT, 'examples', 'vitest-workers');
    const manifest = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.values(manifest.scripts).join(' ')).not.toMatch(/jest/);
    expect(existsSync(join(example, 'jest.config.mjs'))).toBe(false);
    for (const file of readdirSync(join(example, 'test')).filter((name) => name.endsWith('.test.mjs'))) {
      expect(readFileSync(join(example, 'test', file), 'utf8'), file).toContain("from 'vitest'");
    }
  });
});
