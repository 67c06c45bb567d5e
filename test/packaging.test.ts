/**
 * Delivery: what `npm pack` ships installs with `npm install -g` into a fresh prefix
 * and its `svc` serves; the runtime code imports nothing but dependencies and Node's own
 * modules; and `npm run build:binary`'s single-file executable serves the API and passes
 * `svc conformance` against itself.
 */
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { ensureBuilt, ROOT, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const run = promisify(execFile);
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const work = mkdtempSync(join(tmpdir(), 'svc-packaging-'));
const started: ServeProcess[] = [];

beforeAll(ensureBuilt, 120_000);
afterAll(() => {
  for (const svc of started) if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

async function expectHealthy(svc: ServeProcess): Promise<void> {
  const health = await fetch(`${svc.origin}/healthz`);
  expect(health.status).toBe(200);
  const apps = await fetch(`${svc.baseUrl}/apps`, { headers: { 'x-api-key': ACME_KEY } });
  expect(apps.status).toBe(200);
  expect(((await apps.json()) as { total: number }).total).toBeGreaterThan(0);
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? jsFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  );
}

describe('the npm package', () => {
  it('imports only dependencies and Node built-ins at run time', () => {
    const builtins = new Set(builtinModules);
    const allowed = new Set(Object.keys(PACKAGE.dependencies));
    const strays: string[] = [];
    const seen = new Set<string>();
    for (const file of jsFiles(join(ROOT, 'dist'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        if (specifier === undefined || specifier.startsWith('.')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        seen.add(name);
        if (specifier.startsWith('node:') || builtins.has(name) || allowed.has(name)) continue;
        strays.push(`${relative(ROOT, file)} imports ${specifier}${name in PACKAGE.devDependencies ? ' (a devDependency)' : ''}`);
      }
    }
    expect(strays).toEqual([]);
    // The scan read real imports: the framework and the CLI library are among them.
    expect([...seen]).toEqual(expect.arrayContaining(['hono', '@hono/zod-openapi', 'commander', 'node:fs']));
  });

  it('runs its bundle in strict mode, as the ES modules it is made from', () => {
    // The bundle is the body of a CommonJS wrapper function (scripts/bundle.mjs): compiled, the
    // script answers that function, and a strict function's caller cannot be read.
    const wrapper = new Script(readFileSync(join(ROOT, 'dist', 'bundle', 'svc.cjs'), 'latin1')).runInThisContext() as object;
    expect(typeof wrapper).toBe('function');
    expect(() => Reflect.get(wrapper, 'caller')).toThrow(TypeError);
  });

  it('packs what svc needs, installs globally into a fresh prefix, and its svc serves', async () => {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((file) => file.path);
    for (const needed of ['package.json', 'README.md', 'bin/svc.js', 'dist/cli/index.js', 'dist/index.js', 'dist/index.d.ts', 'fixtures/default.json'])
      expect(files).toContain(needed);
    expect(files.filter((path) => /^(src|test|scripts|dist-bin)\/|\.test\.js$|test-support/.test(path))).toEqual([]);

    const prefix = join(work, 'prefix');
    await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, packed!.filename)], {
      cwd: work,
      timeout: 150_000,
    });
    const svcBin = process.platform === 'win32' ? join(prefix, 'svc.cmd') : join(prefix, 'bin', 'svc');
    expect(existsSync(svcBin)).toBe(true);
    const version = await run(svcBin, ['--version'], { cwd: work });
    expect(version.stdout.trim()).toBe(PACKAGE.version);
    const svc = await startServeProcess(['--in-memory'], [svcBin]);
    started.push(svc);
    await expectHealthy(svc);
    svc.child.kill('SIGTERM');
    expect((await svc.exited).code).toBe(0);
  }, 180_000);
});

describe('the single-file binary (npm run build:binary)', () => {
  const binary = join(ROOT, 'dist-bin', process.platform === 'win32' ? 'svc.exe' : 'svc');
  let problem: string | null = null;
  beforeAll(async () => {
    try {
      await run(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs')], { cwd: ROOT, timeout: 60_000 });
    } catch (error) {
      problem = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? String(error);
    }
  }, 90_000);

  it('serves the API and passes svc conformance run by itself against itself', async (ctx) => {
    if (problem !== null) {
      console.warn(`skipped: the single-file binary could not be built here (esbuild, node --experimental-sea-config or postject): ${problem}`);
      ctx.skip();
    }
    const version = await run(binary, ['--version']);
    expect(version.stdout.trim()).toBe(PACKAGE.version);
    const svc = await startServeProcess(['--in-memory', '--rate-limit', 'off'], [binary]);
    started.push(svc);
    await expectHealthy(svc);
    const conformance = await run(binary, ['conformance', '--url', svc.baseUrl, '--api-key', ACME_KEY, '--second-api-key', GLOBEX_KEY], {
      timeout: 50_000,
      env: { ...process.env, NO_COLOR: '1' },
    }).then(
      ({ stdout }) => ({ stdout, code: 0 }),
      (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code }),
    );
    expect(conformance.code, conformance.stdout.slice(-3000)).toBe(0);
    expect(conformance.stdout).toMatch(/Summary: \d+ passed, 0 failed, \d+ skipped of \d+ checks/);
    expect(conformance.stdout.split('\n').filter((line) => line.includes('✗'))).toEqual([]);
    svc.child.kill('SIGTERM');
    expect((await svc.exited).code).toBe(0);
  }, 70_000);
});
