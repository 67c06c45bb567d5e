/**
 * `svc serve` as a real process for the reliability tests (crash, signals, secrets in logs):
 * started from the built CLI with `--log-format json`, its ready line parsed for the URLs,
 * its whole output kept so a test can grep the log.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'svc.js');
const BUILT_ENTRY = join(ROOT, 'dist', 'cli', 'index.js');
/**
 * Written by every build (scripts/bundle.mjs makes the bundle anew), so its time is the last
 * build's: tsc builds incrementally and leaves a file it need not emit again as it was.
 */
export const BUILD_STAMP = join(ROOT, 'dist', 'bundle', 'manifest.json');

export interface ServeProcess {
  child: ChildProcess;
  /** http://127.0.0.1:port (no trailing slash) */
  origin: string;
  /** origin + /v1 */
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `npm test` builds first; a lone run of a process test builds when the last build is older than src. */
export async function ensureBuilt(): Promise<void> {
  if (existsSync(BUILT_ENTRY) && existsSync(BUILD_STAMP) && statSync(BUILD_STAMP).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  try {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT });
  } catch (error) {
    // tsc still emits on type errors elsewhere in the tree; only a missing entry point is fatal here.
    if (!existsSync(BUILT_ENTRY)) throw error;
  }
}

/**
 * Starts `<command> serve --log-format json --port 0 …args` and waits for its ready line.
 * `command` defaults to `node bin/svc.js`; pass another (a packed or single-file binary) to test that.
 */
export async function startServeProcess(args: string[], command: string[] = [process.execPath, BIN], timeoutMs = 15_000): Promise<ServeProcess> {
  const [file, ...prefix] = command;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['FORCE_COLOR'];
  const child = spawn(file!, [...prefix, 'serve', '--log-format', 'json', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = out.split('\n').find((line) => line.includes('"msg":"ready"'));
    if (ready !== undefined) {
      const { baseUrl } = JSON.parse(ready) as { baseUrl: string };
      return { child, origin: baseUrl.replace(/\/v1$/, ''), baseUrl, stdout: () => out, stderr: () => err, exited };
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`svc serve did not get ready (exit ${child.exitCode}):\n${out}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
