/**
 * What a whole run covers of the emulator's own OpenAPI document (docs/conformance.md#coverage):
 * every operation exercised, at least 90 % of the documented (operation, status) pairs, and the
 * coverage table the document's operations both ways: each operation of the document has its
 * entry, listing the statuses the document lists, and each entry is an operation of the document.
 * The suite runs in this process against a fresh emulator on a loopback port, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/conformance/catalogue.js';
import { documentedOperations, neverExercised } from '../src/conformance/coverage.js';
import { preflight } from '../src/conformance/preflight.js';
import { runSuite, type RunReport } from '../src/conformance/runner.js';
import { selectChecks } from '../src/conformance/select.js';
import { OPERATIONS } from '../src/operations/index.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

let svc: TestEmulator;
let report: RunReport;
let document: unknown;

beforeAll(async () => {
  svc = await startTestEmulator();
  const target = { baseUrl: svc.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 30_000 };
  const { profile } = await preflight(target, 'auto');
  const selected = selectChecks(CATALOGUE, { profile, includeSlow: false, readOnly: false, only: [], skip: [], hasSecondKey: true });
  report = await runSuite({ target, selected, profile, receiver: { host: '127.0.0.1', port: 0 } });
  document = await (await fetch(`${svc.baseUrl}/openapi.json`)).json();
}, 180_000);

afterAll(async () => {
  await svc?.close();
});

const key = (operation: { method: string; path: string }): string => `${operation.method} ${operation.path}`;

describe('a whole run against the emulator', () => {
  it('passes, in the emulator profile', () => {
    expect(report.profile).toBe('emulator');
    const broken = report.results.filter((result) => result.outcome === 'failed' || result.outcome === 'error');
    expect(broken.map((result) => `${result.id}: ${result.reason ?? ''}`)).toEqual([]);
  });

  it('has one coverage entry per operation of the document, with its statuses, and no other', () => {
    const documented = documentedOperations(document);
    const entries = new Map(report.coverage.operations.map((entry) => [key(entry), entry]));
    for (const operation of documented) {
      const entry = entries.get(key(operation));
      expect(entry, `${operation.operationId} has no coverage entry`).toBeDefined();
      expect([entry?.operationId, entry?.documented], key(operation)).toEqual([operation.operationId, operation.documented]);
    }
    for (const entry of report.coverage.operations)
      expect(
        documented.some((operation) => key(operation) === key(entry)),
        `${entry.operationId} (${key(entry)}) is in the table, not in the document`,
      ).toBe(true);
    expect(report.coverage.operations).toHaveLength(documented.length);
    expect(new Set(report.coverage.operations.map((entry) => entry.operationId))).toEqual(new Set(Object.keys(OPERATIONS)));
    expect(report.coverage.documentedPairs).toBe(documented.reduce((sum, operation) => sum + operation.documented.length, 0));
  });

  it('exercises every operation and at least 90 % of the documented (operation, status) pairs', () => {
    const { coverage } = report;
    expect(neverExercised(coverage).map((operation) => operation.operationId)).toEqual([]);
    expect(coverage.operations.length).toBe(Object.keys(OPERATIONS).length);
    const missed = coverage.operations.flatMap((operation) =>
      operation.documented.filter((status) => !operation.exercised.includes(status)).map((status) => `${operation.operationId} ${status}`),
    );
    expect(coverage.exercisedPairs).toBe(coverage.documentedPairs - missed.length);
    expect(coverage.percent, `${coverage.exercisedPairs} of ${coverage.documentedPairs}; not exercised: ${missed.join(', ')}`).toBeGreaterThanOrEqual(90);
  });
});
