/**
 * `svc conformance --own-tenants` (docs/conformance.md#own-tenants): the whole suite runs in two
 * tenants it makes through the control plane and removes at the end, and the user's tenant is
 * left as it was — its users, apps, webhooks, API keys, settings, events and journal — while a
 * webhook of it wired to a receiver gets nothing. A target without the control plane is refused
 * (exit 2, one line) before anything is sent.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/schemas/words.js';
import { runCli, SVC_BIN } from '../src/test-support/cli.js';
import { conformanceTarget } from '../src/test-support/conformance-target.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

const target = conformanceTarget('svc-conformance-own-tenants-');

interface JsonReport {
  runId: string;
  counts: { total: number; passed: number; failed: number; error: number };
  results: Array<{ id: string; outcome: string; reason?: string }>;
  cleanup: Array<{ description: string; ok: boolean }>;
}

let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** Everything of the Acme tenant a run could touch, read through the API and the control plane. */
async function acmeState() {
  const { svc } = target;
  const tenant = (await svc.request('GET', '/tenant')).body.data as { id: string; name: string; settings: unknown };
  const page = async (path: string) => {
    const body = (await svc.request('GET', `${path}?page_size=100`)).body as { total: number; data: Array<{ id: string }> };
    return { total: body.total, ids: body.data.map((item) => item.id) };
  };
  return {
    tenant,
    users: await page('/users'),
    apps: await page('/apps'),
    webhooks: (await svc.request('GET', '/webhooks')).body.data as unknown[],
    keys: (await svc.request('GET', '/api-keys')).body.data as unknown[],
    events: (await svc.request('GET', `/_emulator/events?tenant=${tenant.id}`)).body.data as unknown[],
  };
}

/** The newest sequence number of the journal entries under `tenantId` (the control plane's own calls are not journaled). */
async function journalUnder(tenantId: string): Promise<Array<{ seq: number; method: string; path: string }>> {
  return (await target.svc.request('GET', `/_emulator/requests?tenant=${tenantId}`)).body.data as Array<{ seq: number; method: string; path: string }>;
}

describe('svc conformance --own-tenants', () => {
  it("runs the whole suite in tenants of its own, removes them, and leaves the user's tenant untouched", async () => {
    const { svc } = target;
    // A webhook of the user's tenant, subscribed to every event there is, wired to a receiver.
    const hook = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: [...EVENT_TYPES] } });
    expect(hook.status).toBe(201);
    const before = await acmeState();
    const tenantsBefore = (await svc.request('GET', '/_emulator/tenants')).body.data as Array<{ id: string }>;
    // Read last, so the reads of this test are in it and nothing after it is of the test's making.
    const journalBefore = await journalUnder(before.tenant.id);

    // No --api-key: the run needs none of the user's.
    const run = await target.runWithReports('own', ['--url', svc.baseUrl, '--own-tenants'], 120_000);
    const report = run.report<JsonReport>();
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    expect(report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'error').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    // With tenants of its own the isolation checks have their second tenant: none skips for want of a key.
    expect(report.results.filter((r) => r.reason?.includes('--second-api-key')).map((r) => r.id)).toEqual([]);
    expect(report.results.find((r) => r.id === 'isolation.apps')?.outcome ?? 'passed').toBe('passed');

    // The journal first: any call of the run under the user's tenant would be in it.
    expect((await journalUnder(before.tenant.id)).filter((entry) => entry.seq > (journalBefore.at(-1)?.seq ?? 0))).toEqual([]);
    expect(await acmeState()).toEqual(before);
    // The webhook of the user's tenant was sent nothing at all.
    expect(receiver.received).toEqual([]);

    // The run's tenants were made and are gone: the control plane lists the tenants it listed before.
    const tenantsAfter = (await svc.request('GET', '/_emulator/tenants')).body.data as Array<{ id: string; name: string }>;
    expect(tenantsAfter.map((t) => t.id).sort()).toEqual(tenantsBefore.map((t) => t.id).sort());
    expect(report.cleanup.filter((entry) => entry.description.includes("the run's own"))).toEqual([
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
    ]);
  }, 180_000);

  it('removes its tenants after Ctrl-C too', async () => {
    const { svc } = target;
    const tenants = async () => ((await svc.request('GET', '/_emulator/tenants')).body.data as Array<{ id: string; name: string }>).map((t) => t.name);
    const before = await tenants();
    // The slow retry check waits a minute for its retry: the run is certain to be under way.
    const child = spawn(
      process.execPath,
      [SVC_BIN, 'conformance', '--url', svc.baseUrl, '--own-tenants', '--only', 'webhooks.retry-after-one-minute', '--include-slow'],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const started = async (): Promise<boolean> => {
      const runId = /run (\w+):/.exec(stdout)?.[1];
      return runId !== undefined && (await tenants()).filter((name) => name.startsWith(`conf-${runId}-`)).length === 2;
    };
    for (let i = 0; i < 200 && !(await started()); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await started()).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await tenants()).toEqual(before);
  }, 30_000);

  it('refuses a target without the control plane: exit 2, one line, nothing sent but the look for it', async () => {
    const seen: string[] = [];
    const server: Server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found","code":"not_found","details":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const result = await runCli(['conformance', '--url', url, '--own-tenants'], { timeoutMs: 30_000 });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: configuration: --own-tenants needs svc's control plane/)]);
      expect(seen).toEqual(['GET /_emulator/health']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
