/**
 * The suite's own parts: the catalogue's invariants, selection, baselines, the JUnit writer,
 * the 429 back-off and the network-error classification over real loopback servers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyBaseline, unknownEntries } from './baseline.js';
import { CATALOGUE, catalogueProblems } from './catalogue.js';
import { SPEC_ENDPOINTS } from './endpoints.js';
import { TargetUnreachable } from './expect.js';
import { junitReport, xmlEscape } from './reporters/junit.js';
import type { RunReport } from './runner.js';
import { selectChecks } from './select.js';
import { exitCodeOf } from './summary.js';
import { retryAfterMs, suiteFetch } from './transport.js';
import type { CheckResult } from './types.js';
import { wellFormedXml } from '../test-support/xml.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const result = (id: string, outcome: CheckResult['outcome'], reason?: string): CheckResult => ({
  id,
  area: id.split('.')[0]!,
  tags: [id.split('.')[0]!],
  description: `the ${id} rule`,
  spec: 'part 1',
  profile: 'spec',
  outcome,
  durationMs: 3,
  requests: 1,
  notes: [],
  ...(reason ? { reason } : {}),
});

describe('the catalogue', () => {
  it('has unique ids, tags, spec lines, and well over a hundred checks', () => {
    expect(catalogueProblems()).toEqual([]);
    expect(CATALOGUE.length).toBeGreaterThan(200);
  });

  it('holds every endpoint of the spec in at least one check', () => {
    for (const endpoint of SPEC_ENDPOINTS) {
      expect(
        CATALOGUE.some((check) => check.id === `auth.missing-key.${endpoint.area}.${endpoint.op}`),
        `${endpoint.method} ${endpoint.path}`,
      ).toBe(true);
    }
    expect(SPEC_ENDPOINTS).toHaveLength(54);
  });

  it('tags checks with the spec area names', () => {
    const tags = new Set(CATALOGUE.flatMap((check) => check.tags));
    for (const area of [
      'apps',
      'users',
      'api-keys',
      'webhooks',
      'passkeys',
      'telegram',
      'guests',
      'delegated-sessions',
      'mfa',
      'mpc',
      'custom-domains',
      'tenant',
      'analytics',
      'billing',
      'health',
    ]) {
      expect(tags.has(area), area).toBe(true);
    }
  });

  it('keeps slow and emulator checks out of the spec profile by default (D14)', () => {
    const ids = selectChecks(CATALOGUE, { profile: 'spec', includeSlow: false, readOnly: false, only: [], skip: [], hasSecondKey: true }).map(
      (s) => s.check.id,
    );
    expect(ids).not.toContain('webhooks.retry-after-one-minute');
    expect(ids).not.toContain('webhooks.retry-schedule');
    expect(ids).toContain('webhooks.user-created.signature');
    const slow = selectChecks(CATALOGUE, { profile: 'spec', includeSlow: true, readOnly: false, only: ['slow'], skip: [], hasSecondKey: true });
    expect(slow.map((s) => s.check.id)).toEqual(['webhooks.retry-after-one-minute']);
  });

  it('selects by id, id prefix and tag, and skips what --skip names', () => {
    const pick = (only: string[], skip: string[] = []) =>
      selectChecks(CATALOGUE, { profile: 'emulator', includeSlow: false, readOnly: false, only, skip, hasSecondKey: false }).map((s) => s.check.id);
    expect(pick(['apps.list'])).toEqual(['apps.list']);
    expect(pick(['webhooks.user-created'])).toContain('webhooks.user-created.signature');
    expect(pick(['isolation']).every((id) => id.startsWith('isolation.'))).toBe(true);
    expect(pick(['apps'], ['pagination'])).not.toContain('apps.page-size');
  });
});

describe('baselines', () => {
  it('turn a listed failure into a known failure and a listed pass into a failure, one result per check', () => {
    const results = [result('apps.list', 'failed', 'broken'), result('apps.create', 'passed'), result('apps.get', 'passed')];
    const out = applyBaseline(results, {
      entries: [
        { id: 'apps.list', reason: 'ticket 12' },
        { id: 'apps.create', reason: 'flaky' },
      ],
    });
    expect(out.map((r) => [r.id, r.outcome])).toEqual([
      ['apps.list', 'expected'],
      ['apps.create', 'failed'],
      ['apps.get', 'passed'],
    ]);
    expect(out[0]?.reason).toContain('known failure (baseline: ticket 12)');
    expect(out[1]?.reason).toBe('apps.create passes now; remove it from the baseline (it says: flaky)');
    expect(exitCodeOf({ results: out, interrupted: false })).toBe(1);
    expect(exitCodeOf({ results: [out[0]!, out[2]!], interrupted: false })).toBe(0);
  });

  it('find entries that name no check, before any run', () => {
    expect(
      unknownEntries(
        {
          entries: [
            { id: 'apps.list', reason: 'a' },
            { id: 'nope.nope', reason: 'old' },
          ],
        },
        CATALOGUE,
      ),
    ).toEqual(['nope.nope']);
  });
});

describe('exit codes', () => {
  it.each([
    { outcomes: ['passed', 'skipped', 'expected'], code: 0 },
    { outcomes: ['passed', 'failed'], code: 1 },
    { outcomes: ['failed', 'error'], code: 2 },
  ] as const)('$outcomes → $code', ({ outcomes, code }) => {
    expect(exitCodeOf({ results: outcomes.map((o, i) => result(`x.${i}`, o)), interrupted: false })).toBe(code);
  });
  it('is 130 when interrupted', () => expect(exitCodeOf({ results: [], interrupted: true })).toBe(130));
});

describe('the JUnit report', () => {
  it('is well-formed XML with a testsuite per area and failure, error and skipped elements', () => {
    const report: RunReport = {
      runId: 'abc',
      baseUrl: 'http://x/v1',
      profile: 'spec',
      concurrency: 1,
      startedAt: '2026-11-21T10:00:00.000Z',
      durationMs: 12,
      cleanup: [],
      kept: [],
      interrupted: false,
      coverage: { operations: [], events: [], documentedPairs: 0, exercisedPairs: 0, percent: 0 },
      results: [
        result('apps.list', 'passed'),
        result('apps.create', 'failed', 'part 4: <data> & "quotes"\n    → POST /apps'),
        result('users.list', 'error', 'ECONNRESET'),
        result('users.get', 'skipped', 'needs a key'),
      ],
    };
    const xml = junitReport(report);
    expect(wellFormedXml(xml)).toBe(true);
    expect(xml).toContain('<testsuite name="conformance.apps" tests="2" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<failure message="part 4: &lt;data&gt; &amp; &quot;quotes&quot;" type="apps.create">');
    expect(xml).toContain('<error message="ECONNRESET" type="TargetUnreachable">');
    expect(xml).toContain('<skipped message="needs a key"/>');
    expect(wellFormedXml('<a><b></a></b>')).toBe(false);
    expect(xmlEscape('a\u0000b\u0007c')).toBe('abc');
  });
});

describe('the transport', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBe(1000);
  });

  it('waits as Retry-After says on 429 and tries again, instead of failing', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"slow down","code":"rate_limited","details":[]}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
    });
    const waits: number[] = [];
    const started = Date.now();
    const response = await suiteFetch({ timeoutMs: 5_000, onBackoff: (_url, ms) => waits.push(ms) })(`${url}/v1/tenant`, { method: 'GET' });
    expect(response.status).toBe(200);
    expect(waits).toEqual([1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const raw = await suiteFetch({ timeoutMs: 5_000, backoff: false })(`${url}/v1/tenant`, { method: 'GET' });
    expect(raw.status).toBe(200);
  });

  it('answers a 429 whose Retry-After is a lock (over a minute) at once, without waiting', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls += 1;
      res.writeHead(429, { 'retry-after': '900' }).end('{"code":"mfa_locked"}');
    });
    const waits: number[] = [];
    const started = Date.now();
    expect((await suiteFetch({ timeoutMs: 5_000, onBackoff: (_url, ms) => waits.push(ms) })(`${url}/v1/mfa/challenge`, { method: 'POST' })).status).toBe(429);
    // Asked once, no pause begun: what "at once" means, however loaded the machine.
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
    // A wait sat out unannounced would be the 900 s asked (or the 60 s cap): far above this bound, which is far above a slow answer.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('turns refused connections and timeouts into TargetUnreachable', async () => {
    await expect(suiteFetch({ timeoutMs: 2_000 })('http://127.0.0.1:1/v1/tenant', { method: 'GET' })).rejects.toBeInstanceOf(TargetUnreachable);
    const url = await serve(() => undefined); // never answers
    const error = await suiteFetch({ timeoutMs: 300 })(`${url}/v1/tenant`, { method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnreachable);
    expect((error as Error).message).toContain('no answer within the timeout');
  });
});
