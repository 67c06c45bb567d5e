/** svc trigger, events, seed, reset, faults and openapi, run as the built binary against a real emulator. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../src/test-support/cli.js';
import { ACME_TENANT_ID, GLOBEX_KEY, GLOBEX_TENANT_ID, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

/** One line on stderr, no stack trace. */
function expectOneLineError(result: CliResult, code: number, text: string): void {
  expect(result.code).toBe(code);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain(text);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('svc control commands against a running emulator', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let dir: string;
  let url: string[];
  beforeAll(async () => {
    svc = await startTestEmulator();
    receiver = await startReceiver(() => 200);
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    url = ['--url', svc.origin];
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([['trigger'], ['events'], ['seed'], ['reset'], ['faults'], ['faults', 'add'], ['faults', 'list'], ['faults', 'clear'], ['openapi']])(
    'svc %s --help shows examples',
    async (...command) => {
      const help = await runCli([...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
      expect(help.stdout).toContain(`$ svc ${command[0]}`);
    },
  );

  it('triggers a sample event that reaches the subscribed webhook, and shows it in the event log', async () => {
    await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['wallet.created'] } });
    const human = await runCli(['trigger', 'wallet.created', ...url]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Triggered wallet\.created evt_\w+ for tenant ten_acme0+1: 1 delivery\n {2}dlv_\w+ {2}succeeded {2}HTTP 200/);
    const [request] = await receiver.waitFor(1);
    expect(JSON.parse(request!.body.toString())).toMatchObject({ type: 'wallet.created', data: { walletId: expect.stringMatching(/^wal_/) } });

    const events = await runCli(['events', '--type', 'wallet.created', '--json', ...url]);
    expect(events.code).toBe(0);
    expect(JSON.parse(events.stdout)).toEqual([expect.objectContaining({ type: 'wallet.created', tenantId: ACME_TENANT_ID })]);
    const lines = await runCli(['events', '--limit', '1', ...url]);
    expect(lines.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}wallet\.created +evt_\w+ {2}ten_acme/);
  });

  it('triggers for the tenant of an API key, with given data, as JSON', async () => {
    const result = await runCli(['trigger', 'tx.failed', '--api-key', GLOBEX_KEY, '--data', '{"reason":"test"}', '--json', ...url]);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.event).toMatchObject({ type: 'tx.failed', tenantId: GLOBEX_TENANT_ID, data: { reason: 'test' } });
    expect(parsed.deliveries).toEqual([]);
  });

  it.each([
    { args: ['trigger', 'nope.event'], code: 2, text: '"nope.event" is not an event type' },
    { args: ['trigger', 'user.created', '--api-key', 'sk_test_notAKeyAtAll00000000000000000001'], code: 1, text: '--api-key is not accepted' },
    { args: ['trigger', 'user.created', '--data', '[1]'], code: 2, text: '--data must be a JSON object' },
    { args: ['trigger', 'user.created', '--tenant', 'ten_missing000000000000000'], code: 1, text: 'tenant ten_missing000000000000000 not found' },
    { args: ['faults', 'add', '--path', '/users', '--count', '0'], code: 2, text: '--count must be a whole number' },
    { args: ['faults', 'add', '--path', '/users', '--delay', 'soon'], code: 2, text: '--delay "soon" is not a duration' },
    { args: ['faults', 'add', '--path', 'users'], code: 1, text: 'POST /_emulator/faults failed' },
    { args: ['faults', 'add', '--path', '/nope/:x/y'], code: 1, text: 'no /v1 route matches /nope/:x/y, so the fault would never fire; the closest: ' },
    { args: ['faults', 'add', '--path', '/user/:id'], code: 1, text: 'the closest: /users/:id' },
    { args: ['faults', 'add', '--method', 'DELETE', '--path', '/users/:id'], code: 1, text: 'no DELETE route matches /users/:id' },
    { args: ['faults', 'add', '--path', '/*', '--tenant', 'ten_missing000000000000000'], code: 1, text: 'tenant ten_missing000000000000000 not found' },
    { args: ['events', '--limit', '0'], code: 2, text: '--limit must be a whole number from 1 to 1000' },
  ])('refuses $args in one line', async ({ args, code, text }) => {
    expectOneLineError(await runCli([...args, ...url]), code, text);
  });

  it('adds, lists and clears faults that the API then answers', async () => {
    const added = await runCli(['faults', 'add', '--method', 'get', '--path', '/apps/:id', '--status', '503', '--count', '2', '--json', ...url]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ method: 'GET', path: '/apps/:id', status: 503, remaining: 2 });
    expect((await svc.request('GET', '/apps/app_whatever')).status).toBe(503);
    const listed = await runCli(['faults', 'list', ...url]);
    expect(listed.stdout).toMatch(/^flt_\w+ {2}GET +\/apps\/:id +answer 503 {2}\(1 of 2 left\)\n$/);
    const cleared = await runCli(['faults', 'clear', ...url]);
    expect(cleared.stdout).toBe('Cleared 1 fault.\n');
    expect((await runCli(['faults', 'list', ...url])).stdout).toBe('No faults.\n');
    expect((await svc.request('GET', '/apps/app_whatever')).status).toBe(404);
  });

  it("adds a fault for one tenant's requests, which another tenant's do not meet", async () => {
    const added = await runCli(['faults', 'add', '--path', '/apps/*', '--status', '500', '--tenant', GLOBEX_TENANT_ID, ...url]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^Added flt_\\w+ {2}ANY +/apps/\\* +answer 500 for ${GLOBEX_TENANT_ID}'s requests {2}\\(1 of 1 left\\)\n$`));
    expect((await svc.request('GET', '/apps')).status).toBe(200);
    expect((await svc.request('GET', '/apps', { key: GLOBEX_KEY })).status).toBe(500);
    expect((await runCli(['faults', 'list', ...url])).stdout).toBe('No faults.\n');
  });

  it("seeds a fixture file, refuses a bad one before sending, and resets to the server's fixture", async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ tenants: [{ name: 'Cli Co', apiKeys: [{ name: 'k', key: 'sk_test_cliSeededKey00000000000000000001' }] }] }));
    const seeded = await runCli(['seed', good, ...url]);
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(/^Seeded 1 tenant: Cli Co \(ten_\w+, pro\)\n$/);
    expect((await svc.request('GET', '/tenant', { key: 'sk_test_cliSeededKey00000000000000000001' })).status).toBe(200);
    expectOneLineError(await runCli(['seed', good, ...url]), 1, 'already exists');

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ tenants: [{ name: '', apiKeys: [] }] }));
    // One problem a line under the file's name, exactly as `svc serve --seed` lists them.
    const refused = await runCli(['seed', bad, ...url]);
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error: the fixture ${bad} is not valid:`);
    expect(lines.slice(1)).toEqual(expect.arrayContaining(['  tenants.0.apiKeys: a tenant needs at least one API key']));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const served = await runCli(['serve', '--port', '0', '--in-memory', '--seed', bad]);
    expect(served.code).not.toBe(0);
    expect(served.stderr).toBe(refused.stderr);
    expectOneLineError(await runCli(['seed', join(dir, 'missing.json'), ...url]), 2, 'cannot read the fixture');

    const reset = await runCli(['reset', '--json', ...url]);
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout).tenants.map((t: { id: string }) => t.id)).toEqual([ACME_TENANT_ID, GLOBEX_TENANT_ID]);
    expect((await svc.request('GET', '/tenant', { key: 'sk_test_cliSeededKey00000000000000000001' })).status).toBe(401);
  });

  it('writes the OpenAPI document made in-process, the same one the server answers', async () => {
    const out = join(dir, 'openapi.json');
    const written = await runCli(['openapi', '--out', out]);
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(`Wrote the OpenAPI document to ${out}, servers: http://127.0.0.1:4010`);
    const local = JSON.parse(readFileSync(out, 'utf8'));
    expect(local.openapi).toBe('3.1.0');
    expect(local.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4010' })]);
    expect(Object.keys(local.paths)).toContain('/v1/users/{id}');
    const remote = await runCli(['openapi', ...url]);
    expect(remote.code).toBe(0);
    expect(Object.keys(JSON.parse(remote.stdout).paths)).toEqual(Object.keys(local.paths));
    // Fetched from a server, the document names that server; made here, the origin --server gives.
    expect(JSON.parse(remote.stdout).servers[0].url).toBe(svc.origin);
    expect(remote.stderr).toContain(`The document's servers: ${svc.origin}`);
    const elsewhere = await runCli(['openapi', '--server', 'http://127.0.0.1:4400']);
    expect(JSON.parse(elsewhere.stdout).servers[0].url).toBe('http://127.0.0.1:4400');
    expect(elsewhere.stderr).toContain("The document's servers: http://127.0.0.1:4400 (set it with --server)");
    expectOneLineError(await runCli(['openapi', '--server', 'http://127.0.0.1:4400/v1']), 2, '--server "http://127.0.0.1:4400/v1" is not an origin');
    expectOneLineError(await runCli(['openapi', '--out', join(dir, 'no', 'such', 'dir.json')]), 1, 'cannot write');
  });
});
