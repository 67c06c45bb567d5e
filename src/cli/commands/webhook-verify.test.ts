import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/cli.js';
import { signDelivery } from '../../webhooks/signature.js';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const eventId = 'evt_4f8Qm2xZb7LkP1sT9vRa';
const body = JSON.stringify({
  id: eventId,
  type: 'user.created',
  created_at: '2026-11-21T10:00:00.000Z',
  api_version: '2026-11-01',
  data: { userId: 'usr_1', email: 'ada@example.com', partyId: 'ada::1220ab' },
});
const dir = mkdtempSync(join(tmpdir(), 'svc-verify-'));
const bodyFile = join(dir, 'body.json');
writeFileSync(bodyFile, body);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function args(timestamp = Math.floor(Date.now() / 1000), key = secret): string[] {
  const headers = signDelivery(key, eventId, body, timestamp);
  return ['webhook', 'verify', '--timestamp', headers['X-Service-Timestamp']!, '--signature', headers['X-Service-Signature']!];
}

describe('svc webhook verify', { timeout: 30_000 }, () => {
  it('says valid and exits 0 for a good delivery, from a file or stdin, with the secret from the env', async () => {
    const fromFile = await runCli([...args(), '--secret', secret, '--event-id', eventId, '--body-file', bodyFile]);
    expect(fromFile).toMatchObject({ code: 0, stdout: `valid  user.created ${eventId}\n` });
    const fromStdin = await runCli(args(), { input: body, env: { SVC_WEBHOOK_SECRET: secret } });
    expect(fromStdin.code).toBe(0);
  });

  it.each<[string, () => string[], string | undefined, RegExp]>([
    ['a tampered body', () => [...args(), '--secret', secret], body.replace('ada@', 'eve@'), /^invalid: signature_mismatch\n/],
    ['a wrong secret', () => [...args(undefined, 'whsec_other'), '--secret', secret], body, /^invalid: signature_mismatch\n/],
    [
      'a stale timestamp',
      () => [...args(Math.floor(Date.now() / 1000) - 400), '--secret', secret],
      body,
      /^invalid: timestamp_too_old\n[^]*hint: .*--ignore-age/,
    ],
    ['another event id', () => [...args(), '--secret', secret, '--event-id', 'evt_other'], body, /^invalid: event_id_mismatch\n/],
    [
      'a trailing newline from echo',
      () => [...args(), '--secret', secret],
      `${body}\n`,
      /^invalid: signature_mismatch\n[^]*hint: the body ends with a newline/,
    ],
  ])('exits 1 with the reason for %s', async (_name, argv, input, output) => {
    const result = await runCli(argv(), input === undefined ? {} : { input });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(output);
  });

  it.each<[string, string[], number]>([
    ['--ignore-age', ['--ignore-age'], 0],
    ['--tolerance 10m', ['--tolerance', '10m'], 0],
    ['--tolerance 399', ['--tolerance', '399'], 1],
  ])('judges a delivery signed 400 s ago under %s', async (_name, extra, code) => {
    const stale = args(Math.floor(Date.now() / 1000) - 400);
    expect((await runCli([...stale, '--secret', secret, '--body-file', bodyFile, ...extra])).code).toBe(code);
  });

  it('prints JSON with --json', async () => {
    const result = await runCli([...args(undefined, 'whsec_other'), '--secret', secret, '--body-file', bodyFile, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, reason: 'signature_mismatch', eventId, eventType: 'user.created' });
  });

  it.each<[string, string[], string]>([
    ['no secret', ['--body-file', bodyFile], '--secret'],
    ['no signature', ['--secret', secret, '--timestamp', '1', '--body-file', bodyFile], '--signature'],
    ['a missing body file', ['--secret', secret, '--timestamp', '1', '--signature', 'sha256=ab', '--body-file', join(dir, 'nope.json')], 'ENOENT'],
    ['a bad tolerance', ['--secret', secret, '--tolerance', 'soon'], '--tolerance'],
  ])('exits 2 on bad usage: %s', async (_name, argv, message) => {
    const result = await runCli(['webhook', 'verify', ...argv], { env: { SVC_WEBHOOK_SECRET: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
