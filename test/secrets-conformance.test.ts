/**
 * The whole conformance suite against `svc serve` (a real process, a data dir, its log kept),
 * through a fetch that records every body sent and answered. Every secret the run saw — found
 * by its shape or its field in that traffic, a list of this test's own and not the schemas'
 * marks — is then looked for in the request journal, in the log and in `svc export`: none is
 * in the journal or the log, and the export holds keys and bot tokens only with
 * --include-secrets (docs/testing-with-svc.md#secrets). Error codes stay readable in the journal.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../src/client/transport.js';
import { CATALOGUE } from '../src/conformance/catalogue.js';
import { preflight } from '../src/conformance/preflight.js';
import { runSuite, type RunReport } from '../src/conformance/runner.js';
import { selectChecks } from '../src/conformance/select.js';
import { runCli } from '../src/test-support/cli.js';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const REDACTED = '[redacted]';

/** Secrets by their shape, wherever they are in a body. */
const SHAPES = [
  /sk_test_[0-9A-Za-z]{32}/g,
  /whsec_[0-9A-Za-z]{32}/g,
  /\bst_[0-9A-Za-z]{32}/g,
  /\bdst_[0-9A-Za-z]{32}/g,
  /otpauth:\/\/[^"\\]+/g,
  /data:image\/png;base64,[^"\\]+/g,
];
/** Fields whose every string value is a secret, wherever they are in a body. */
const SECRET_FIELDS = new Set(['deviceShare', 'recoveryShare', 'share', 'shares', 'privateKey', 'secret', 'recoveryCodes', 'botToken', 'token']);

/** Every string under a secret field of a JSON value (arrays of them included). */
function secretFieldValues(value: unknown, into: Set<string>, under = false): void {
  if (typeof value === 'string') {
    if (under) into.add(value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) secretFieldValues(item, into, under);
    return;
  }
  for (const [name, field] of Object.entries(value)) secretFieldValues(field, into, under || SECRET_FIELDS.has(name));
}

interface Seen {
  method: string;
  url: string;
  sent: string;
  status: number;
  answered: string;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

describe('no secret of a whole conformance run in the journal, the log or an export without --include-secrets', () => {
  let dir: string;
  let svc: ServeProcess;
  const seen: Seen[] = [];
  let report: RunReport;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'svc-secrets-conformance-'));
    svc = await startServeProcess(['--data-dir', join(dir, 'data'), '--journal-size', '1000000']);
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      const sent = typeof init.body === 'string' ? init.body : '';
      seen.push({ method: init.method ?? 'GET', url, sent, status: response.status, answered: await response.clone().text() });
      return response;
    };
    const target = { baseUrl: svc.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 30_000, fetch: recording };
    const { profile } = await preflight(target, 'auto');
    // The rate-limit check's hundreds of calls carry no secret, and on a loaded machine it cannot outrun the refill.
    const selected = selectChecks(CATALOGUE, { profile, includeSlow: false, readOnly: false, only: [], skip: ['rate-limits'], hasSecondKey: true });
    report = await runSuite({ target, selected, profile, receiver: { host: '127.0.0.1', port: 0 } });
  }, 180_000);

  afterAll(async () => {
    if (svc !== undefined && svc.child.exitCode === null) {
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every secret value the run sent or was answered, by shape and by field; the fixture keys too (sent as headers). */
  function secretsOfTheRun(): Set<string> {
    const found = new Set<string>([ACME_KEY, GLOBEX_KEY]);
    for (const { sent, answered } of seen) {
      for (const text of [sent, answered]) {
        for (const shape of SHAPES) for (const match of text.matchAll(shape)) found.add(match[0]);
        secretFieldValues(parse(text), found);
      }
    }
    return found;
  }

  it('the run passed, and saw every kind of secret', () => {
    expect(report.results.filter((result) => result.outcome === 'failed' || result.outcome === 'error').map((result) => result.id)).toEqual([]);
    const secrets = [...secretsOfTheRun()];
    for (const shape of [
      /^sk_test_/,
      /^whsec_/,
      /^st_/,
      /^dst_/,
      /^otpauth:/,
      /^data:image/,
      /^[A-Z2-7]{16,}=*$/,
      /^[0-9a-f]{64}$/,
      /^[A-Za-z0-9+/]{40,}={0,2}$/,
    ]) {
      expect(
        secrets.some((value) => shape.test(value)),
        `a secret like ${shape}`,
      ).toBe(true);
    }
  });

  it('keeps none of them in the journal, where every error code reads as answered and every TOTP code is hidden', async () => {
    const answer = await fetch(`${svc.origin}/_emulator/requests`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const journal = (JSON.parse(text) as { data: Array<{ method: string; path: string; status: number; requestBody: unknown; responseBody: unknown }> }).data;
    expect(journal.length).toBeGreaterThan(500);
    const secrets = [...secretsOfTheRun()].filter((value) => value.length >= 10);
    expect(secrets.length).toBeGreaterThan(50);
    for (const value of secrets) expect(text.includes(value), `${value.slice(0, 16)}… in the journal`).toBe(false);

    const errors = journal.filter((entry) => entry.status >= 400 && typeof entry.responseBody === 'object' && entry.responseBody !== null);
    expect(errors.length).toBeGreaterThan(50);
    for (const entry of errors) expect((entry.responseBody as { code?: unknown }).code, `${entry.method} ${entry.path}`).toMatch(/^[a-z_]+$/);
    const codes = new Set(errors.map((entry) => (entry.responseBody as { code: string }).code));
    for (const code of ['validation_error', 'invalid_api_key', 'not_found', 'invalid_code']) expect(codes).toContain(code);

    const mfaCodes = journal.filter((entry) => /^\/v1\/mfa\/verify/.test(entry.path) && typeof entry.requestBody === 'object' && entry.requestBody !== null);
    expect(mfaCodes.length).toBeGreaterThan(0);
    for (const entry of mfaCodes) {
      const { code } = entry.requestBody as { code?: unknown };
      if (typeof code === 'string') expect(code, entry.path).toBe(REDACTED);
    }
  });

  it('prints none of them in the log', async () => {
    // The ready line prints the fixture keys on purpose (README); every line after it is the log.
    const lines = svc.stdout().split('\n');
    const afterReady = [...lines.slice(lines.findIndex((line) => line.includes('"msg":"ready"')) + 1), svc.stderr()].join('\n');
    expect(afterReady).toMatch(/"msg":"request"/);
    for (const value of [...secretsOfTheRun()].filter((secret) => secret.length >= 10)) {
      expect(afterReady.includes(value), `${value.slice(0, 16)}… in the log`).toBe(false);
    }
  });

  it('svc export holds the keys and bot tokens only with --include-secrets, and no other secret of the run', async () => {
    const hidden = join(dir, 'hidden.json');
    const whole = join(dir, 'whole.json');
    expect((await runCli(['export', '--url', svc.origin, '--out', hidden])).code).toBe(0);
    expect((await runCli(['export', '--url', svc.origin, '--out', whole, '--include-secrets'])).code).toBe(0);
    const hiddenText = readFileSync(hidden, 'utf8');
    const wholeText = readFileSync(whole, 'utf8');
    const secrets = [...secretsOfTheRun()].filter((value) => value.length >= 10);
    for (const value of secrets) expect(hiddenText.includes(value), `${value.slice(0, 16)}… in the export`).toBe(false);
    const exported = JSON.parse(wholeText) as { tenants: Array<{ apiKeys: Array<{ key: string }>; settings: { telegram: { botToken?: string } } }> };
    const keys = exported.tenants.flatMap((tenant) => tenant.apiKeys.map((key) => key.key));
    const botTokens = exported.tenants.flatMap((tenant) => tenant.settings.telegram.botToken ?? []);
    expect(keys).toEqual(expect.arrayContaining([ACME_KEY, GLOBEX_KEY]));
    expect(botTokens.length).toBeGreaterThan(0);
    for (const value of [...keys, ...botTokens]) expect(hiddenText.includes(value), `${value.slice(0, 16)}… without --include-secrets`).toBe(false);
    // Beyond keys and bot tokens, the fixture format holds no secret of the run.
    const beyond = secrets.filter((value) => !keys.includes(value) && !botTokens.includes(value));
    for (const value of beyond) expect(wholeText.includes(value), `${value.slice(0, 16)}… in the export with --include-secrets`).toBe(false);
  });
});
