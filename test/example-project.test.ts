/**
 * The example project (examples/vitest-workers) run as a user runs it: `svc exec -- npx vitest run`
 * in a copy of it whose node_modules holds this svc (built) and this repo's vitest. Four workers
 * in parallel, each in its own tenant, each asserting a webhook arrived and a request is in the
 * journal; a failing run returns vitest's failing code and leaves the artefacts.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { tempDataDir } from '../src/test-support/harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let project: string;

beforeAll(() => {
  project = join(tempDataDir(), 'vitest-workers');
  cpSync(join(ROOT, 'examples', 'vitest-workers'), project, { recursive: true });
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'svc'));
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
  symlinkSync(join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), join(project, 'node_modules', '.bin', 'vitest'));
});

/** Runs node in the project with `env` added and every SVC_ variable taken away, as outside svc exec. */
function runNode(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: project, env: { ...clean, NO_COLOR: '1', ...env }, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

interface Note {
  file: string;
  worker: string;
  tenant: string;
  pid: number;
}

function notes(file: string): Note[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Note);
}

describe('examples/vitest-workers under svc exec', () => {
  it('passes with four workers in parallel, each in its own tenant', async () => {
    const file = join(tempDataDir(), 'notes.jsonl');
    const result = await runCli(['exec', '--', 'npx', 'vitest', 'run'], { env: { EXAMPLE_NOTES: file }, timeoutMs: 150_000, cwd: project });
    expect(result.stdout + result.stderr).toMatch(/Test Files\s+4 passed \(4\)/);
    expect(result.code).toBe(0);
    const seen = notes(file);
    expect(seen.map((note) => note.file).sort()).toEqual(['errors', 'guests', 'tenants', 'users']);
    expect(new Set(seen.map((note) => note.tenant)).size).toBe(4);
    expect(new Set(seen.map((note) => note.pid)).size).toBe(4);
    expect(new Set(seen.map((note) => note.worker)).size).toBe(4);
  }, 180_000);

  it('passes without svc exec too: the globalSetup starts the run’s emulator and stops it', async () => {
    const file = join(tempDataDir(), 'notes.jsonl');
    const run = await runNode([join(project, 'node_modules', '.bin', 'vitest'), 'run'], { EXAMPLE_NOTES: file });
    expect(run.output).toMatch(/Test Files\s+4 passed \(4\)/);
    expect(run.code).toBe(0);
    expect(new Set(notes(file).map((note) => note.tenant)).size).toBe(4);
  }, 180_000);

  it('returns the failing code and leaves the artefacts when a test fails', async () => {
    const artifacts = join(tempDataDir(), 'artifacts');
    const result = await runCli(['exec', '--artifacts', artifacts, '--', 'npx', 'vitest', 'run'], {
      env: { EXAMPLE_FAIL: '1' },
      timeoutMs: 150_000,
      cwd: project,
    });
    expect(result.stdout + result.stderr).toMatch(/made to fail on purpose/);
    expect(result.code).toBe(1);
    for (const name of ['emulator.log', 'requests.json', 'store.json', 'fixture.json']) expect(existsSync(join(artifacts, name))).toBe(true);
    const journal = JSON.parse(readFileSync(join(artifacts, 'requests.json'), 'utf8')) as Array<{ path: string; requestBody: unknown }>;
    expect(journal).toContainEqual(expect.objectContaining({ path: '/v1/users', requestBody: { email: 'linus@example.test' } }));
  }, 180_000);
});
