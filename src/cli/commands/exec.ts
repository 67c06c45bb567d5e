/**
 * `svc exec [serve options] -- <command…>`: runs a command (a test run) against a fresh emulator
 * and answers with the command's exit code. The emulator is seeded and `/v1/readyz` answers 200
 * before the command starts; the command finds it through SVC_URL and the fixture's keys; the
 * signals the wrapper gets are passed on. When the command fails, the emulator's log, its request
 * journal and its store are written to `--artifacts`, for CI to keep.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { startEmulator, type Emulator } from '../../emulator.js';
import { createLogger } from '../../logger.js';
import { CliError } from '../output.js';
import { writeArtifacts, writeExport } from './exec-artifacts.js';
import { addServeOptions, emulatorOptions, type ServeOptions } from './serve.js';
import { emulatorEnv } from '../../testing/shared-emulator.js';
import { loadUndici } from '../../undici.js';

interface ExecOptions extends ServeOptions {
  artifacts?: string;
  exportOnExit?: string;
  verbose?: boolean;
}

/** The emulator log kept for the artefacts: the newest lines, at most this many. */
const LOG_LINES = 20_000;
/** How long the emulator has to answer /v1/readyz 200 once it listens. */
const READY_TIMEOUT_MS = 30_000;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function waitUntilReady(baseUrl: string): Promise<void> {
  const { fetch } = await loadUndici();
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      await response.text();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new CliError(`the emulator at ${baseUrl} was not ready within ${READY_TIMEOUT_MS / 1000}s (last: ${last})`);
}

/** Runs the command; answers its exit code (128 + the signal's number when a signal ended it, as a shell does). */
function runCommand(argv: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...env } });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const done = (code: number): void => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
      resolve(code);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      process.stderr.write(`svc exec: cannot run ${argv[0]}: ${error.code === 'ENOENT' ? 'no such command' : error.message}\n`);
      done(127);
    });
    child.once('exit', (code, signal) => done(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0))));
  });
}

export function registerExec(program: Command): void {
  addServeOptions(program.command('exec').description('Run a command (your tests) against a fresh emulator and exit with its exit code'), { port: 0 })
    .argument('<command...>', 'the command and its arguments, after --')
    .option('--artifacts <dir>', 'when the command fails, write the emulator log, the request journal and the store here')
    .option('--export-on-exit <file>', 'when the command ends, write the store as a fixture file (svc serve --seed takes it back)')
    .option('--verbose', "print the emulator's log on stderr as it runs")
    .addHelpText(
      'after',
      `
The emulator starts on a free loopback port (--port to choose) with a new temporary data dir
(removed afterwards; --data-dir to keep one, --store for PostgreSQL), is seeded from its fixture
(--seed), and once /v1/readyz answers 200 the command starts with:
  SVC_URL               the base URL, http://127.0.0.1:<port>/v1 (svc's own commands read it too)
  SVC_ORIGIN            http://127.0.0.1:<port> (the control plane is at $SVC_ORIGIN/_emulator)
  SVC_API_KEY           a key of the fixture's first tenant; SVC_TENANT_ID that tenant
  SVC_SECOND_API_KEY    a key of another tenant;       SVC_SECOND_TENANT_ID that tenant
SIGINT, SIGTERM and SIGHUP are passed on to the command; svc exec exits with its exit code.

Examples:
  $ svc exec -- npm test
  $ svc exec --artifacts ./svc-artifacts -- npx vitest run
  $ svc exec --seed fixtures/mine.json --export-on-exit state.json -- node smoke.js`,
    )
    .action(async (argv: string[], options: ExecOptions) => {
      process.exitCode = await exec(argv, options);
    });
}

async function exec(argv: string[], options: ExecOptions): Promise<number> {
  if (argv.length === 0) throw new CliError('name the command to run after --, e.g. svc exec -- npm test', 2);
  const log: string[] = [];
  const logger = createLogger({
    format: options.logFormat,
    quiet: options.quiet ?? false,
    write: (line) => {
      log.push(line);
      if (log.length > LOG_LINES) log.splice(0, log.length - LOG_LINES);
      if (options.verbose) process.stderr.write(`${line}\n`);
    },
  });
  const settings = emulatorOptions(options, logger);
  const temporary =
    options.dataDir === undefined && settings.storeUrl === undefined && !options.inMemory ? await mkdtemp(join(tmpdir(), 'svc-exec-')) : undefined;
  let emulator: Emulator | undefined;
  try {
    emulator = await startEmulator({ ...settings, ...(temporary === undefined ? {} : { dataDir: temporary }) });
    await waitUntilReady(emulator.baseUrl);
    process.stderr.write(`svc exec: emulator ready at ${emulator.baseUrl}; running ${argv.join(' ')}\n`);
    const code = await runCommand(argv, emulatorEnv(emulator));
    if (options.exportOnExit !== undefined) await writeExport(emulator, options.exportOnExit);
    if (code !== 0 && options.artifacts !== undefined) {
      await writeArtifacts(emulator, options.artifacts, log);
      process.stderr.write(`svc exec: the command failed (exit ${code}); the emulator log, request journal and store are in ${options.artifacts}\n`);
    }
    return code;
  } finally {
    await emulator?.close();
    if (temporary !== undefined) await rm(temporary, { recursive: true, force: true });
  }
}
