/**
 * Every effect read back (docs/conformance.md#every-effect-read-back): the operations table is
 * walked, and every write operation of the document — POST, PUT, PATCH, DELETE — must be named
 * in the `readsBack` of some check of the catalogue. The declaration is held honest by a run of
 * those checks against a real emulator: each passes, and each made a request to every operation
 * it names that succeeded, and read the API after that answer.
 */
import { describe, expect, it } from 'vitest';
import { conformanceChecks } from '../src/index.js';
import { OPERATIONS } from '../src/operations/index.js';
import { templateMatcher } from '../src/path-template.js';
import { preflight } from '../src/conformance/preflight.js';
import { runSuite } from '../src/conformance/runner.js';
import { selectChecks } from '../src/conformance/select.js';
import type { Answer } from '../src/conformance/coverage.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator } from '../src/test-support/harness.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * POSTs that only read, each with the reason it has no effect to read back. None so far: every
 * POST of the document makes or changes something — a record, a session, a challenge that
 * can be used once — so each must be read back like any other write.
 */
const READ_ONLY_POSTS: Readonly<Record<string, string>> = {};

/**
 * Writes no run can make succeed on any deployment, each with the reason: for these the check
 * makes the attempt, is refused (4xx), and reads back that the refusal changed nothing. None so
 * far: verifying a custom domain, which needs a DNS TXT record, succeeds once the run publishes
 * the record in svc's emulated DNS (docs/control-plane.md#emulated-dns).
 */
const REFUSED_WRITES: Readonly<Record<string, string>> = {};

const operations = Object.entries(OPERATIONS).map(([operationId, { method, path }]) => ({ operationId, method, path }));
const writes = operations.filter((o) => WRITE_METHODS.has(o.method) && !(o.method === 'POST' && o.operationId in READ_ONLY_POSTS));
const declared = conformanceChecks.filter((check) => (check.readsBack ?? []).length > 0);

describe('every write operation of the document is read back by a check', () => {
  it.each(writes.map((o) => [o.operationId, `${o.method} ${o.path}`]))('%s (%s) is named in the readsBack of a check', (operationId) => {
    const readers = declared.filter((check) => check.readsBack!.includes(operationId)).map((check) => check.id);
    if (readers.length === 0) expect.fail(`no check of the catalogue declares readsBack: ['${operationId}']: nothing confirms its effect`);
  });

  it('names only write operations of the document, and lists as read-only only POSTs of it', () => {
    const writeIds = new Set(writes.map((o) => o.operationId));
    const wrong = declared.flatMap((check) => check.readsBack!.filter((id) => !writeIds.has(id)).map((id) => `${check.id}: ${id}`));
    expect(wrong).toEqual([]);
    for (const id of Object.keys(READ_ONLY_POSTS)) expect(operations.find((o) => o.operationId === id)?.method).toBe('POST');
    for (const id of Object.keys(REFUSED_WRITES)) expect(writeIds.has(id)).toBe(true);
  });
});

describe('a check that declares a read-back makes it', () => {
  it('against a real emulator: passes, its write to each operation it names succeeded, and it read the API after', async () => {
    const svc = await startTestEmulator();
    try {
      const target = { baseUrl: svc.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 30_000 };
      const { profile } = await preflight(target, 'auto');
      expect(profile).toBe('emulator');
      const only = declared.map((check) => check.id);
      const selected = selectChecks(conformanceChecks, { profile, includeSlow: false, readOnly: false, only, skip: [], hasSecondKey: true });
      const seen = new Map<string, Answer[]>();
      const report = await runSuite({
        target,
        selected,
        profile,
        receiver: { host: '127.0.0.1', port: 0 },
        listener: { onAnswer: (answer, checkId) => void (checkId === undefined ? undefined : seen.set(checkId, [...(seen.get(checkId) ?? []), answer])) },
      });
      expect(
        report.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.outcome} ${r.reason ?? ''}`),
        'every check that declares a read-back passes against the emulator',
      ).toEqual([]);

      const base = new URL(svc.baseUrl).pathname;
      const operationOf = templateMatcher(operations.map((o) => ({ method: o.method, path: `${base}${o.path}`, value: o.operationId })));
      const problems: string[] = [];
      for (const check of declared) {
        const answers = (seen.get(check.id) ?? []).map((a) => ({ ...a, operationId: operationOf(a.method.toUpperCase(), new URL(a.url).pathname) }));
        for (const operationId of check.readsBack!) {
          const refused = operationId in REFUSED_WRITES;
          const answered = (status: number) => (status >= 200 && status < 300) || (refused && status >= 400 && status < 500);
          const write = answers.findIndex((a) => a.operationId === operationId && answered(a.status));
          if (write === -1) {
            problems.push(`${check.id} declares ${operationId} but no request of it to ${operationId} ${refused ? 'was answered 2xx or 4xx' : 'succeeded'}`);
            continue;
          }
          const read = answers.slice(write + 1).find((a) => a.method.toUpperCase() === 'GET' && a.operationId !== undefined);
          if (read === undefined) problems.push(`${check.id} declares ${operationId} but read nothing of the API after it`);
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await svc.close();
    }
  }, 90_000);
});
