import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

describe('svc clock and svc webhook dlq against a running emulator', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  beforeAll(async () => {
    svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T10:00:00.000Z') } });
    receiver = await startReceiver(() => 500);
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
  });

  it('gets, sets and advances the clock', async () => {
    const got = await runCli(['clock', 'get', '--url', svc.origin, '--json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).now.startsWith('2026-11-21T10:00')).toBe(true);
    const set = await runCli(['clock', 'set', '--now', '2026-11-22T00:00:00Z', '--url', svc.origin]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^2026-11-22T00:00:0\d\.\d{3}Z\s+speed ×1/);
    const bad = await runCli(['clock', 'advance', 'soon', '--url', svc.origin]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a duration');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('advances until a delivery is dead, lists the DLQ and retries it', async () => {
    const hook = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'] } });
    await svc.request('POST', '/users', { body: { email: 'cli-dlq@example.com' } });
    await receiver.waitFor(1);
    const advanced = await runCli(['clock', 'advance', '2d', '--url', svc.origin]);
    expect(advanced.code).toBe(0);
    expect(advanced.stdout).toContain('5 delivery attempts fired');
    const listed = await runCli(['webhook', 'dlq', 'list', '--url', svc.origin, '--json']);
    const dead = JSON.parse(listed.stdout) as Array<{ id: string; webhookId: string }>;
    const mine = dead.find((d) => d.webhookId === hook.body.data.id)!;
    expect(mine).toBeDefined();
    receiver.respond = () => 204;
    const retried = await runCli(['webhook', 'dlq', 'retry', mine.id, '--url', svc.origin]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('succeeded');
    expect(receiver.received).toHaveLength(7);
  });

  it('says in one line when no emulator answers', async () => {
    const result = await runCli(['clock', 'get', '--url', 'http://127.0.0.1:1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('cannot reach the emulator');
  });
});
