/**
 * `svc webhook probe` against real handlers on loopback ports (test/fixtures/probe-handlers/),
 * written the way users write them: two correct ones and svc's own receiver pass every case;
 * each buggy one, with one bug, is caught by the case named for that bug, and only by the
 * cases that bug must fail. Then the command as users run it (bin/svc.js, built): exit codes,
 * the report card, JSON and JUnit files, --only/--skip, --webhook against a real emulator,
 * and the example handler users copy, run as its README says.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_CASES } from '../src/probe/cases.js';
import { junitReport } from '../src/probe/report.js';
import { runProbe } from '../src/probe/run.js';
import type { ProbeReport } from '../src/probe/types.js';
import { createReceiver } from '../src/receiver/receiver.js';
import { EVENT_TYPES } from '../src/schemas/words.js';
import { runCli } from '../src/test-support/cli.js';
import { ACME_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/ports.js';
import { wellFormedXml } from '../src/test-support/xml.js';
import * as acceptsUnsigned from './fixtures/probe-handlers/accepts-unsigned.js';
import * as bodyOnlySignature from './fixtures/probe-handlers/body-only-signature.js';
import * as correctHono from './fixtures/probe-handlers/correct-hono.js';
import * as correctNode from './fixtures/probe-handlers/correct-node.js';
import * as duplicate500 from './fixtures/probe-handlers/duplicate-500.js';
import * as hangs from './fixtures/probe-handlers/hangs.js';
import * as ignoresBody from './fixtures/probe-handlers/ignores-body.js';
import * as noTimestampCheck from './fixtures/probe-handlers/no-timestamp-check.js';
import * as prefixCompare from './fixtures/probe-handlers/prefix-compare.js';
import * as redirects from './fixtures/probe-handlers/redirects.js';
import * as rejectsOutOfOrder from './fixtures/probe-handlers/rejects-out-of-order.js';
import * as reserialisedBody from './fixtures/probe-handlers/reserialised-body.js';
import * as slow from './fixtures/probe-handlers/slow.js';
import * as unknownType from './fixtures/probe-handlers/unknown-type.js';

const SECRET = 'whsec_ProbeTest0000000000000000000001';
const ACCEPT_CASES = PROBE_CASES.filter((c) => c.expect === 'accept').map((c) => c.id);
const REQUIRED_REFUSALS = PROBE_CASES.filter((c) => c.expect === 'refuse' && c.severity === 'required').map((c) => c.id);

interface Running {
  url: string;
  close(): Promise<void>;
}

/** Listens on a free loopback port; `path` is where the handler takes deliveries. */
async function serve(server: Server, path = '/webhooks'): Promise<Running> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function probe(server: Server, path?: string, timeoutMs?: number): Promise<ProbeReport> {
  const handler = await serve(server, path);
  try {
    return await runProbe({ url: handler.url, secret: SECRET, apiVersion: '2026-11-01', ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  } finally {
    await handler.close();
  }
}

const ids = (report: ProbeReport, outcome: 'failed' | 'warned'): string[] => report.results.filter((r) => r.outcome === outcome).map((r) => r.id);
const reasonOf = (report: ProbeReport, id: string): string => report.results.find((r) => r.id === id)?.reason ?? '';

describe('svc webhook probe grades real handlers', () => {
  it.for([
    ['plain node:http', () => correctNode.createHandler(SECRET), '/webhooks'],
    ['Hono with Web Crypto', () => correctHono.createHandler(SECRET), '/hooks/svc'],
  ] as const)('passes a correct handler in %s on every case, with no warning', async ([, create, path]) => {
    const report = await probe(create(), path);
    expect(ids(report, 'failed')).toEqual([]);
    expect(ids(report, 'warned')).toEqual([]);
    expect(report.counts).toEqual({ total: PROBE_CASES.length, passed: PROBE_CASES.length, failed: 0, warned: 0 });
    expect(report.exitCode).toBe(0);
    expect(report.timing.answered).toBe(ACCEPT_CASES.length + 2); // the duplicate and out-of-order cases send two each
    expect(report.timing.medianMs).toBeLessThanOrEqual(report.timing.slowestMs!);
  });

  it('passes svc webhook listen’s own receiver on every case', async () => {
    const receiver = await createReceiver({ secret: SECRET, host: '127.0.0.1', port: 0 });
    try {
      const report = await runProbe({ url: receiver.url, secret: SECRET, apiVersion: '2026-11-01' });
      expect(report.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  const unhandled = EVENT_TYPES.filter((type) => !['user.created', 'user.updated', 'tx.completed', 'tx.failed'].includes(type)).map((type) => `event.${type}`);

  it.for([
    ['verifies a re-serialised body', () => reserialisedBody.createHandler(SECRET), ['raw-body.spaces', 'raw-body.escapes'], [], 'answered 400'],
    ['never checks the timestamp', () => noTimestampCheck.createHandler(SECRET), ['refuse.stale-timestamp'], ['refuse.future-timestamp'], 'must be refused'],
    ['accepts an unsigned delivery', () => acceptsUnsigned.createHandler(SECRET), ['refuse.unsigned'], [], 'answered 200'],
    ['answers 500 to a duplicate', () => duplicate500.createHandler(SECRET), ['delivery.duplicate'], [], 'delivery 2 (the same event again'],
    ['fails on event types it does not handle', () => unknownType.createHandler(SECRET), unhandled, [], 'answered 500'],
    ['accepts a signature over the body alone', () => bodyOnlySignature.createHandler(SECRET), ['refuse.body-only-signature'], [], 'answered 200'],
    [
      'checks the signature’s shape and the timestamp, not what is signed',
      () => ignoresBody.createHandler(SECRET),
      ['refuse.wrong-secret', 'refuse.body-only-signature', 'refuse.body-changed', 'refuse.timestamp-changed'],
      [],
      'must be refused',
    ],
    ['compares a prefix of the signature', () => prefixCompare.createHandler(SECRET), ['refuse.malformed-signature'], [], 'answered 200'],
    ['refuses an event older than the last one', () => rejectsOutOfOrder.createHandler(SECRET), ['delivery.out-of-order'], [], 'answered 409'],
  ] as const)('catches a handler that %s, by the cases named for it and no others', async ([, create, failing, warned, reason]) => {
    const report = await probe(create());
    expect(ids(report, 'failed')).toEqual(failing);
    expect(ids(report, 'warned')).toEqual(warned);
    for (const id of failing) expect(reasonOf(report, id)).toContain(reason);
    expect(report.exitCode).toBe(1);
  });

  it('reports a warning as a passing JUnit testcase that says so, and counts it apart from failures', async () => {
    const handler = await serve(noTimestampCheck.createHandler(SECRET));
    try {
      const report = await runProbe({ url: handler.url, secret: SECRET, apiVersion: '2026-11-01', only: ['refuse'] });
      expect(report.counts).toEqual({ total: 8, passed: 6, failed: 1, warned: 1 });
      const xml = junitReport(report);
      expect(wellFormedXml(xml)).toBe(true);
      expect(xml).toContain('<testsuite name="webhook-probe" tests="8" failures="1" errors="0" skipped="0"');
      expect(xml).toMatch(/name="refuse\.future-timestamp: [^"]*"[^>]*>\n\s*<system-out>warning: sent: +user\.created signed 3600 s ahead/);
    } finally {
      await handler.close();
    }
  });

  it('catches a handler that redirects: every good delivery fails on the 308, and the reason says a sender does not follow it', async () => {
    const report = await probe(redirects.createHandler(SECRET), '/webhooks');
    expect(ids(report, 'failed')).toEqual(ACCEPT_CASES);
    expect(reasonOf(report, 'event.user.created')).toMatch(/^redirect 308 to \/webhooks\/: only a 2xx counts and a sender does not follow redirects/);
    expect(report.results.find((r) => r.id === 'event.user.created')!.deliveries).toHaveLength(1);
  });

  it('catches a handler that works before answering: past the time limit (here 1 s for 1.5 s of work), the timing case fails', async () => {
    // The default limit is the spec's 30 s; the handler's 35 s of work and the limit are scaled down alike.
    const report = await probe(slow.createHandler(SECRET, { workMs: 1_500 }), '/webhooks', 1_000);
    expect(ids(report, 'failed')).toEqual(ACCEPT_CASES);
    expect(reasonOf(report, 'timing.answer-in-time')).toBe('no answer within 1 s');
    expect(report.results.find((r) => r.id === 'timing.answer-in-time')!.timeoutMs).toBe(1_000);
    expect(report.timeoutMs).toBe(1_000);
    expect(ids(report, 'warned')).toEqual([]); // it verifies before working, so the forgeries are refused at once
  });

  it('gives the timing case the spec’s 30 s by default and every other case 10 s', async () => {
    const report = await probe(correctNode.createHandler(SECRET));
    expect(report.timeoutMs).toBe(30_000);
    expect(report.caseTimeoutMs).toBe(10_000);
    expect(new Set(report.results.map((r) => [r.id, r.timeoutMs].join(' ')))).toContain('timing.answer-in-time 30000');
    expect(report.results.filter((r) => r.timeoutMs === 10_000)).toHaveLength(PROBE_CASES.length - 1);
  });

  it('fails every case of a handler that never answers, each at its own limit, and a refusal that never comes is no refusal', async () => {
    const report = await probe(hangs.createHandler(SECRET), '/webhooks', 1_000);
    expect(ids(report, 'failed')).toEqual([...ACCEPT_CASES.slice(0, -1), ...REQUIRED_REFUSALS, 'timing.answer-in-time']);
    expect(ids(report, 'warned')).toEqual(['refuse.future-timestamp']);
    expect(reasonOf(report, 'refuse.unsigned')).toBe('no answer within 1 s: a refusal is an answer that is not 2xx; none came');
    expect(report.unreachable).toBeNull();
    expect(report.exitCode).toBe(1);
    expect(report.timing.answered).toBe(0);
  });

  it('tells a server that answers no HTTP from one that cannot be reached: reached, every case fails (exit 1)', async () => {
    const ssh = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = ssh.address() as AddressInfo;
      const report = await runProbe({
        url: `http://127.0.0.1:${port}/webhooks`,
        secret: SECRET,
        apiVersion: '2026-11-01',
        only: ['event.user.created', 'refuse.unsigned'],
      });
      expect(report.unreachable).toBeNull();
      expect(report.exitCode).toBe(1);
      expect(reasonOf(report, 'event.user.created')).toMatch(/^no readable HTTP answer: /);
    } finally {
      await new Promise((resolve) => ssh.close(resolve));
    }
  });

  it('says a handler that cannot be reached at all is unreachable (exit 2)', async () => {
    const port = await freePort();
    const report = await runProbe({ url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET, apiVersion: '2026-11-01' });
    expect(report.unreachable).toMatch(/^ECONNREFUSED/);
    expect(report.exitCode).toBe(2);
  });
});

describe('svc webhook probe, the command', () => {
  let good: Running;
  let buggy: Running;
  beforeAll(async () => {
    good = await serve(correctNode.createHandler(SECRET));
    buggy = await serve(reserialisedBody.createHandler(SECRET));
  });
  afterAll(async () => {
    await good.close();
    await buggy.close();
  });

  it('exits 0 on a correct handler and prints each case and the answer times', async () => {
    const result = await runCli(['webhook', 'probe', '--url', good.url, '--secret', SECRET], { timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`svc webhook probe ${good.url}`);
    expect(result.stdout).toMatch(/ {2}✓ event\.billing\.subscription\.updated +200 /);
    expect(result.stdout).toMatch(/Answers: median [\d.]+ m?s, slowest [\d.]+ m?s \([\w.-]+\) over 22 accepted deliveries/);
    expect(result.stdout).toContain(`Summary: ${PROBE_CASES.length} passed, 0 failed of ${PROBE_CASES.length} cases`);
  }, 60_000);

  it('exits 1 on a buggy handler, with what was sent, what came back, why and the fix under each failure', async () => {
    const result = await runCli(['webhook', 'probe', '--url', buggy.url, '--secret', SECRET], { timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    const block = result.stdout.slice(result.stdout.indexOf('✗ raw-body.spaces'));
    expect(block).toMatch(/sent: +user\.created pretty-printed \(spaces and newlines\), signed over those bytes \(evt_\w+\)/);
    expect(block).toMatch(/got: +400 in /);
    expect(block).toMatch(/why: +the signature covers the bytes sent/);
    expect(block).toMatch(/fix: +verify the raw request body/);
    expect(block).toMatch(/docs: +docs\/listen\.md#probe-raw-body/);
    expect(result.stdout).toContain(`Summary: ${PROBE_CASES.length - 2} passed, 2 failed of ${PROBE_CASES.length} cases`);
  }, 60_000);

  it('writes JSON and JUnit reports as svc conformance does, and --only/--skip pick the cases', async () => {
    const dir = tempDataDir();
    const json = join(dir, 'probe.json');
    const junit = join(dir, 'probe.xml');
    const result = await runCli(
      ['webhook', 'probe', '--url', buggy.url, '--secret', SECRET, '--only', 'raw-body,refuse', '--skip', 'refuse.future-timestamp'].concat([
        '--reporter',
        'json',
        '--output',
        json,
        '--reporter',
        'junit',
        '--output',
        junit,
      ]),
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const report = JSON.parse(readFileSync(json, 'utf8')) as ProbeReport;
    expect(report.results.map((r) => r.id)).toEqual(['raw-body.spaces', 'raw-body.escapes', 'raw-body.key-order', ...REQUIRED_REFUSALS]);
    expect(report.exitCode).toBe(1);
    expect(report.results[0]!.deliveries[0]!.headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const xml = readFileSync(junit, 'utf8');
    expect(wellFormedXml(xml)).toBe(true);
    expect(xml).toContain(`<testsuite name="webhook-probe" tests="${3 + REQUIRED_REFUSALS.length}" failures="2" errors="0" skipped="0"`);
    const failed = [...xml.matchAll(/<testcase [^>]*name="([\w.-]+):[^"]*"[^>]*>\n\s*<failure /g)].map((m) => m[1]);
    expect(failed).toEqual(['raw-body.spaces', 'raw-body.escapes']);
    expect(xml).toMatch(/fix: +verify the raw request body/);
  }, 60_000);

  it('refuses an unknown case id with the list of cases (exit 2), and a handler it cannot reach (exit 2)', async () => {
    const unknown = await runCli(['webhook', 'probe', '--url', good.url, '--secret', SECRET, '--only', 'refuse.unsigend']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error: no case is named "refuse\.unsigend"; the cases are event\.user\.created, .*refuse\.unsigned, .*timing\.answer-in-time/,
    );
    const port = await freePort();
    const down = await runCli(['webhook', 'probe', '--url', `http://127.0.0.1:${port}/webhooks`, '--secret', SECRET]);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(new RegExp(`^error: cannot reach http://127\\.0\\.0\\.1:${port}/webhooks: ECONNREFUSED`));
    expect(down.stdout).not.toContain('✗');
  }, 60_000);

  it('takes --timeout for the timing case (here 500 ms for a handler that works 1.5 s before answering); the others wait no longer', async () => {
    const slowHandler = await serve(slow.createHandler(SECRET, { workMs: 1_500 }));
    try {
      const result = await runCli(
        ['webhook', 'probe', '--url', slowHandler.url, '--secret', SECRET, '--timeout', '500ms', '--only', 'timing,refuse.unsigned'],
        {
          timeoutMs: 60_000,
        },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("each answer awaited 500 ms, the timing case's 500 ms");
      expect(result.stdout).toMatch(/✗ timing\.answer-in-time +timeout /);
      expect(result.stdout).toMatch(/fails: +no answer within 0\.5 s\n/);
      expect(result.stdout).toMatch(/✓ refuse\.unsigned +400 /);
    } finally {
      await slowHandler.close();
    }
  }, 60_000);

  it('needs a secret and a URL, and --timeout no longer than the spec’s 30 s', async () => {
    const noSecret = await runCli(['webhook', 'probe', '--url', good.url], { env: { SVC_WEBHOOK_SECRET: '' } });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/^error: give the handler's signing secret with --secret/);
    const noUrl = await runCli(['webhook', 'probe', '--secret', SECRET]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^error: give the handler's URL with --url, or --webhook ID/);
    const long = await runCli(['webhook', 'probe', '--url', good.url, '--secret', SECRET, '--timeout', '45s']);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/--timeout must be a duration up to the spec's 30s/);
  });

  describe('with --webhook, a webhook registered at the emulator', () => {
    let svc: TestEmulator;
    let webhookId: string;
    let secret: string;
    beforeAll(async () => {
      svc = await startTestEmulator();
      const created = await svc.request('POST', '/webhooks', { body: { url: good.url, events: ['*'] } });
      expect(created.status, created.text).toBe(201);
      webhookId = created.body.data.id;
      secret = created.body.data.secret;
    });
    afterAll(() => svc.close());

    it('probes the webhook’s URL with the secret given, the tenant’s api_version in every payload', async () => {
      // The handler knows its own secret; the webhook's must be given, since the API never answers it again.
      const mine = await serve(correctNode.createHandler(secret));
      await svc.request('PATCH', `/webhooks/${webhookId}`, { body: { url: mine.url } });
      try {
        const dir = tempDataDir();
        const json = join(dir, 'probe.json');
        const args = ['webhook', 'probe', '--webhook', webhookId, '--api-key', ACME_KEY, '--secret', secret, '--emulator-url', svc.origin];
        const result = await runCli([...args, '--reporter', 'console', '--reporter', 'json', '--output', json], { timeoutMs: 60_000 });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`Webhook ${webhookId} at ${svc.origin}/v1: ${mine.url}, events *`);
        const report = JSON.parse(readFileSync(json, 'utf8')) as ProbeReport;
        expect(report.url).toBe(mine.url);
        const tenant = await svc.request('GET', '/tenant');
        expect(JSON.parse(report.results[0]!.deliveries[0]!.body).api_version).toBe(tenant.body.data.settings.apiVersion);
      } finally {
        await mine.close();
      }
    }, 60_000);

    it('says why the secret must be given, refuses --url beside --webhook, and names the webhooks a key has', async () => {
      const base = ['webhook', 'probe', '--webhook', webhookId, '--api-key', ACME_KEY, '--emulator-url', svc.origin];
      const noSecret = await runCli(base, { env: { SVC_WEBHOOK_SECRET: '' } });
      expect(noSecret.code).toBe(2);
      expect(noSecret.stderr).toMatch(/the API answers it only when the webhook is made or its secret rotated, so svc cannot read it/);
      const both = await runCli([...base, '--secret', secret, '--url', svc.origin]);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/^error: with --webhook the handler's URL is the webhook's; --url names no emulator here: use --emulator-url/);
      const other = await runCli([
        'webhook',
        'probe',
        '--webhook',
        'whk_NoSuchWebhook0000000001',
        '--api-key',
        ACME_KEY,
        '--secret',
        secret,
        '--emulator-url',
        svc.origin,
      ]);
      expect(other.code).toBe(1);
      // Every webhook of the tenant, as it lists them: the fixture's own and the one made here.
      const listed = await svc.request('GET', '/webhooks');
      const ids = (listed.body as { data: Array<{ id: string }> }).data.map((webhook) => webhook.id);
      expect(ids).toContain(webhookId);
      expect(other.stderr).toContain(`error: the tenant of this API key has no webhook whk_NoSuchWebhook0000000001 (it has ${ids.join(', ')})`);
    }, 60_000);
  });
});

describe('examples/webhook-handler', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const server = fileURLToPath(new URL('../examples/webhook-handler/server.mjs', import.meta.url));
    child = spawn(process.execPath, [server], { env: { ...process.env, SVC_WEBHOOK_SECRET: SECRET, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`server.mjs exited with ${code}: ${out}`)));
    });
  });
  afterAll(() => {
    child.kill();
  });

  it('passes every case of svc webhook probe, run as its README says', async () => {
    const result = await runCli(['webhook', 'probe', '--url', url, '--secret', SECRET], { timeoutMs: 60_000 });
    expect(result.stdout).toContain(`Summary: ${PROBE_CASES.length} passed, 0 failed of ${PROBE_CASES.length} cases`);
    expect(result.code).toBe(0);
  }, 60_000);
});
