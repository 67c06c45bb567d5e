import { describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { emulatorWithReceiver } from '../src/test-support/emulator-with-receiver.js';

describe('svc clock and svc webhook dlq against a running emulator', () => {
  // The emulator's clock starts at 2026-11-21T10:00Z; the receiver fails every delivery until told otherwise.
  const ctx = emulatorWithReceiver(() => 500);

  it('gets, sets and advances the clock', async () => {
    const got = await runCli(['clock', 'get', '--url', ctx.svc.origin, '--json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).now.startsWith('2026-11-21T10:00')).toBe(true);
    const set = await runCli(['clock', 'set', '--now', '2026-11-22T00:00:00Z', '--url', ctx.svc.origin]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^2026-11-22T00:00:0\d\.\d{3}Z\s+speed ×1/);
    const bad = await runCli(['clock', 'advance', 'soon', '--url', ctx.svc.origin]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a duration');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('advances until a delivery is dead, lists the DLQ and retries it', async () => {
    const hook = await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['user.created'] } });
    await ctx.svc.request('POST', '/users', { body: { email: 'cli-dlq@example.com' } });
    await ctx.receiver.waitFor(1);
    const advanced = await runCli(['clock', 'advance', '2d', '--url', ctx.svc.origin]);
    expect(advanced.code).toBe(0);
    expect(advanced.stdout).toContain('5 delivery attempts fired');
    const listed = await runCli(['webhook', 'dlq', 'list', '--url', ctx.svc.origin, '--json']);
    const dead = JSON.parse(listed.stdout) as Array<{ id: string; webhookId: string }>;
    const mine = dead.find((d) => d.webhookId === hook.body.data.id)!;
    expect(mine).toBeDefined();
    ctx.receiver.respond = () => 204;
    const retried = await runCli(['webhook', 'dlq', 'retry', mine.id, '--url', ctx.svc.origin]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('succeeded');
    expect(ctx.receiver.received).toHaveLength(7);
  });

  it('says so when a DLQ retry fails again, and exits 1', async () => {
    ctx.receiver.respond = () => 500;
    const hook = await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['api_key.created'] } });
    await ctx.svc.request('POST', '/api-keys', { body: { name: 'cli-dlq-again' } });
    await runCli(['clock', 'advance', '2d', '--url', ctx.svc.origin]);
    const dead = (await ctx.svc.request('GET', '/_emulator/dlq')).body.data as Array<{ id: string; webhookId: string }>;
    const mine = dead.find((d) => d.webhookId === hook.body.data.id)!;
    const retried = await runCli(['webhook', 'dlq', 'retry', mine.id, '--url', ctx.svc.origin]);
    expect(retried.code).toBe(1);
    expect(retried.stderr.trim()).toBe(`error: the retry of ${mine.id} failed again (HTTP 500): it is back in the DLQ`);
  });

  it('dlq list marks a delivery whose webhook is gone; retry --all skips it, says so, goes on and prints each outcome', async () => {
    ctx.receiver.respond = () => 500;
    const gone = (await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['api_key.created'] } })).body.data;
    const kept = (await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['api_key.created'] } })).body.data;
    await ctx.svc.request('POST', '/api-keys', { body: { name: 'cli-dlq-orphan' } });
    await runCli(['clock', 'advance', '2d', '--url', ctx.svc.origin]);
    await ctx.svc.request('DELETE', `/webhooks/${gone.id}`);
    const dead = (await ctx.svc.request('GET', '/_emulator/dlq')).body.data as Array<{ id: string; webhookId: string }>;
    const orphan = dead.find((d) => d.webhookId === gone.id)!;
    const mine = dead.find((d) => d.webhookId === kept.id)!;
    // The orphan died last (its webhook's deletion), so it comes first: a retry --all that stopped there would send nothing.
    expect(dead[0]!.id).toBe(orphan.id);

    const listed = await runCli(['webhook', 'dlq', 'list', '--url', ctx.svc.origin]);
    expect(listed.stdout.split('\n').find((line) => line.startsWith(orphan.id))).toContain('(webhook deleted: kept for its history, cannot be retried)');
    expect(listed.stdout.split('\n').find((line) => line.startsWith(mine.id))).not.toContain('webhook deleted');

    // Still failing: the retry is sent, fails again, and that is exit 1; the orphan is skipped, not an error.
    const again = await runCli(['webhook', 'dlq', 'retry', '--all', '--url', ctx.svc.origin]);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`${orphan.id}  skipped: its webhook ${gone.id} was deleted; there is nothing to send it to`);
    expect(again.stdout.split('\n').find((line) => line.startsWith(mine.id))).toContain('→ failed again (HTTP 500), back in the DLQ');
    expect(again.stderr).toContain(`error: the retry of ${mine.id} failed again (HTTP 500): it is back in the DLQ`);

    ctx.receiver.respond = () => 204;
    const retried = await runCli(['webhook', 'dlq', 'retry', '--all', '--url', ctx.svc.origin]);
    expect(retried.code, retried.stdout + retried.stderr).toBe(0);
    expect(retried.stdout.split('\n').find((line) => line.startsWith(mine.id))).toContain('→ delivered');
    expect(retried.stdout).toMatch(/Retried (\d+): \1 delivered, 0 failed again; skipped 1 whose webhook was deleted\.\n$/);
    expect(retried.stderr).toBe('');

    // As the API does it: POST /_emulator/dlq/retry skips the orphan too, and the DLQ keeps only it.
    const rest = (await ctx.svc.request('GET', '/_emulator/dlq')).body.data as Array<{ id: string }>;
    expect(rest.map((d) => d.id)).toEqual([orphan.id]);
    const json = await runCli(['webhook', 'dlq', 'retry', '--all', '--json', '--url', ctx.svc.origin]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ id: orphan.id, outcome: 'skipped', reason: expect.stringContaining('was deleted') }]);
  });

  it.each([['get'], ['advance'], ['set']])('svc clock %s --help shows examples', async (sub) => {
    const help = await runCli(['clock', sub, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain(`$ svc clock ${sub}`);
  });

  it("prints the server's details of a 4xx, with the same error: prefix as every error", async () => {
    const delay = await runCli(['faults', 'add', '--path', '/users', '--delay', '20m', '--url', ctx.svc.origin]);
    expect(delay.code).toBe(1);
    expect(delay.stderr).toMatch(
      /^error: POST \/_emulator\/faults failed: The request body is not valid \(validation_error, HTTP 400\): delay: at most 10m\n$/,
    );
    const type = await runCli(['events', '--type', 'nope', '--url', ctx.svc.origin]);
    expect(type.code).toBe(1);
    expect(type.stderr).toContain('type: not a known event type; one of user.created, user.updated');
    expect(type.stderr.startsWith('error: ')).toBe(true);
    const usage = await runCli(['clock', 'advance', 'soon', '--url', ctx.svc.origin]);
    expect(usage.stderr.startsWith('error: ')).toBe(true);
  });

  it('reads --url as every command does: the origin or the /v1 base, and names a bad one', async () => {
    expect((await runCli(['clock', 'get', '--url', `${ctx.svc.origin}/v1/`])).code).toBe(0);
    const bad = await runCli(['clock', 'get', '--url', 'localhost:4010']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: --url "localhost:4010" does not start with http:// or https://');
  });

  it('says in one line when no emulator answers', async () => {
    const result = await runCli(['clock', 'get', '--url', 'http://127.0.0.1:1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('cannot reach the emulator');
  });
});
