/**
 * The set-up the tests of `svc conformance` share: a real emulator on a loopback port (the suite
 * runs as its own process and reaches it only over HTTP) and a temp dir for reports and
 * baselines, both made before the tests of the file or describe that asks and removed after them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli, type CliResult } from './cli.js';
import { ACME_KEY, startTestEmulator, type TestEmulator } from './harness.js';

/** A run's exit code and output, and its two reports, read when asked (a run that fails early writes none). */
export interface ReportedRun extends CliResult {
  /** The JUnit report's text. */
  junit(): string;
  /** The JSON report, parsed. */
  report<T>(): T;
}

export interface ConformanceTarget {
  /** The emulator the suite runs against. */
  readonly svc: TestEmulator;
  /** A temp dir of the tests' own, for reports and baselines. */
  readonly dir: string;
  /** `--url` (the emulator's /v1 base) and `--api-key` (Acme's). */
  readonly args: string[];
  /**
   * Runs `svc conformance` at the emulator with `extra` flags and the console, JUnit and JSON
   * reporters at once: the console on stdout, the other two as `<name>.xml` and `<name>.json` in `dir`.
   */
  runWithReports(name: string, extra: string[], timeoutMs: number): Promise<ReportedRun>;
}

/** Starts the emulator and makes the dir before the tests where it is called, and removes both after them. */
export function conformanceTarget(dirPrefix: string): ConformanceTarget {
  let svc: TestEmulator | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    svc = await startTestEmulator();
    dir = mkdtempSync(join(tmpdir(), dirPrefix));
  });
  afterAll(async () => {
    await svc?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the conformance target starts in beforeAll; use it inside a test or hook');
    return value;
  };
  const args = () => ['--url', started(svc).baseUrl, '--api-key', ACME_KEY];
  return {
    get svc() {
      return started(svc);
    },
    get dir() {
      return started(dir);
    },
    get args() {
      return args();
    },
    async runWithReports(name, extra, timeoutMs) {
      const junitPath = join(started(dir), `${name}.xml`);
      const jsonPath = join(started(dir), `${name}.json`);
      const reporters = ['--reporter', 'console', '--reporter', 'junit', '--output', junitPath, '--reporter', 'json', '--output', jsonPath];
      const result = await runCli(['conformance', ...args(), ...extra, ...reporters], { timeoutMs });
      return {
        ...result,
        junit: () => readFileSync(junitPath, 'utf8'),
        report: <T>() => JSON.parse(readFileSync(jsonPath, 'utf8')) as T,
      };
    },
  };
}
