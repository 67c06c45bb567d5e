/**
 * `svc serve` and `svc webhook listen --register` as real processes: the emulator delivers to
 * the listener, the test sends its own good and bad deliveries, and reads what both print.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN } from '../src/test-support/cli.js';
import { ACME_KEY, sendRequest } from '../src/test-support/harness.js';
import { startReceiver } from '../src/test-support/receiver.js';
import { signDelivery, verifySignature } from '../src/webhooks/signature.js';
import type { DeliveryReport } from '../src/receiver/types.js';

/** A running `svc` process whose stdout is read line by line. */
class SvcProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly #exited: Promise<number | null>;
  #wake: Array<() => void> = [];

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [SVC_BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
      this.#notify();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
      this.#notify();
    });
    this.#exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.#notify();
        resolve(code);
      }),
    );
  }

  #notify(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  get lines(): string[] {
    return this.stdout.split('\n').filter(Boolean);
  }

  /** Resolves with the first stdout line `find` accepts (a RegExp match or a truthy answer). */
  async waitFor<T>(find: (line: string) => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const line of this.lines) {
        const found = find(line);
        if (found) return found;
      }
      if (this.child.exitCode !== null) throw new Error(`svc exited (${this.child.exitCode}) first:\n${this.stdout}\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting; stdout so far:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.#wake.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Resolves with the exit code once the process ends by itself. */
  exited(timeoutMs = 10_000): Promise<number | null> {
    return Promise.race([this.#exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running:\n${this.stdout}`)), timeoutMs))]);
  }

  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.#exited;
  }
}

const matching = (pattern: RegExp) => (line: string) => pattern.exec(line);
const jsonLines = (proc: SvcProcess): Array<Record<string, any>> => proc.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

function userCreatedBody(id: string, email = 'replay@example.com'): string {
  return JSON.stringify({
    id,
    type: 'user.created',
    created_at: '2026-11-21T10:00:00.000Z',
    api_version: '2026-11-01',
    data: { userId: 'usr_x', email, partyId: 'x::1220ab' },
  });
}

async function deliver(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await sendRequest(url, 'POST', { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.status, body: response.body };
}

describe('svc webhook listen against svc serve, as real processes', { timeout: 45_000 }, () => {
  let serve: SvcProcess;
  let baseUrl: string;
  const running: SvcProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'svc-listen-'));

  beforeAll(async () => {
    serve = new SvcProcess(['serve', '--port', '0', '--in-memory', '--log-format', 'json', '--quiet', '--delivery-timeout', '2s']);
    baseUrl = await serve.waitFor((line) => (line.includes('"ready"') ? (JSON.parse(line).baseUrl as string) : null), 20_000);
  });
  afterAll(async () => {
    await Promise.all(running.map((proc) => proc.stop('SIGKILL')));
    await serve.stop('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  /** `svc webhook listen --register` for user.created at the emulator (its /v1 base unless `url` says otherwise). */
  function listen(args: string[], url = baseUrl): SvcProcess {
    const proc = new SvcProcess(['webhook', 'listen', '--register', '--url', url, '--api-key', ACME_KEY, '--port', '0', '--events', 'user.created', ...args]);
    running.push(proc);
    return proc;
  }
  const api = (method: string, path: string, body?: unknown) =>
    sendRequest(`${baseUrl}${path}`, method, { key: ACME_KEY, ...(body === undefined ? {} : { body }) });

  it('shows a user.created event valid and reports each bad delivery with its reason', async () => {
    const log = join(dir, 'deliveries.jsonl');
    const listener = listen(['--log', log]);
    const url = (await listener.waitFor(matching(/URL\s+(http:\/\/127\.0\.0\.1:\d+\/webhooks)/)))[1]!;
    const secret = (await listener.waitFor(matching(/Secret\s+(whsec_\w+)/)))[1]!;
    const webhookId = (await listener.waitFor(matching(/Webhook\s+(whk_\w+)/)))[1]!;

    const user = await api('POST', '/users', { email: 'listen-valid@example.com' });
    expect(user.status).toBe(201);
    const validLine = await listener.waitFor(matching(/#1\s+user\.created\s+(evt_\w+)\s+✔ valid\s+→ 200/));
    const eventId = validLine[1]!;

    const fresh = userCreatedBody('evt_listenTest0000000000001');
    const signed = signDelivery(secret, 'evt_listenTest0000000000001', fresh);
    const stale = signDelivery(secret, 'evt_listenTest0000000000001', fresh, Math.floor(Date.now() / 1000) - 400);
    const { 'X-Service-Signature': _dropped, ...noSignature } = signed;
    const { 'X-Service-Event-Id': _droppedId, ...noEventId } = signed;
    const replay = userCreatedBody(eventId, 'listen-valid@example.com');
    const cases: Array<[string, string, Record<string, string>, number, string]> = [
      ['tampered body', fresh.replace('replay@', 'attacker@'), signed, 400, 'signature_mismatch'],
      ['wrong secret', fresh, signDelivery('whsec_notTheWebhooksSecret0000000000', 'evt_listenTest0000000000001', fresh), 400, 'signature_mismatch'],
      ['stale timestamp', fresh, stale, 400, 'timestamp_too_old'],
      ['missing signature header', fresh, noSignature, 400, 'missing_signature'],
      ['missing event id header', fresh, noEventId, 400, 'missing_event_id'],
      ['replayed event', replay, signDelivery(secret, eventId, replay), 200, 'duplicate'],
    ];
    for (const [name, body, headers, status, reason] of cases) {
      const answer = await deliver(url, body, headers);
      expect(answer.status, name).toBe(status);
      if (status === 400) expect(answer.body.code, name).toBe(reason);
      else expect(answer.body, name).toMatchObject({ duplicate: true });
    }
    const shown = await listener.waitFor((line) => line.includes('#7') && line);
    expect(shown).toMatch(/↺ duplicate\s+→ 200/);
    expect(listener.stdout).toMatch(/#2 .*✖ invalid: signature_mismatch\s+→ 400/);
    expect(listener.stdout).toMatch(
      /#4 .*✖ invalid: timestamp_too_old\s+→ 400\n\s+✖ freshness: timestamp_too_old: the timestamp is 40\d s old \(limit 300 s\)/,
    );
    expect(listener.stdout).toMatch(/#5 .*✖ invalid: missing_signature/);
    expect(listener.stdout).toMatch(/#6 .*✖ invalid: missing_event_id/);
    expect(listener.stdout).toContain('already processed as #1');

    expect(await listener.stop()).toBe(0);
    expect(listener.stdout).toContain(`Deleted webhook ${webhookId}.`);
    expect(listener.stdout).toMatch(/received\s+7\n\s+valid\s+1\n\s+invalid\s+5\n\s+signature_mismatch\s+2\n/);
    expect(listener.stdout).toMatch(/duplicates\s+1/);
    const listed = await api('GET', '/webhooks');
    expect(listed.body.data.map((w: { id: string }) => w.id)).not.toContain(webhookId);

    const logged = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as DeliveryReport);
    expect(logged.map((d) => d.reason ?? d.verdict)).toEqual([
      'valid',
      'signature_mismatch',
      'signature_mismatch',
      'timestamp_too_old',
      'missing_signature',
      'missing_event_id',
      'duplicate',
    ]);
    expect(logged[0]).toMatchObject({ eventId, eventType: 'user.created', answer: { status: 200 } });
  });

  it('--respond 500 makes the emulator retry, visible in its deliveries list', async () => {
    const listener = listen(['--respond', '500', '--json']);
    const { webhookId } = await listener.waitFor((line) => line.startsWith('{') && JSON.parse(line));
    await api('POST', '/users', { email: 'listen-retry@example.com' });
    const first = await listener.waitFor((line) => line.includes('"delivery"') && (JSON.parse(line) as DeliveryReport));
    expect(first).toMatchObject({ verdict: 'valid', eventType: 'user.created', answer: { status: 500, cause: 'respond' } });

    // The listener prints the delivery as it answers; the emulator records the answer just after.
    const codes = async () =>
      ((await api('GET', `/webhooks/${webhookId}/deliveries`)).body.data[0]?.attempts ?? []).map((a: { statusCode: number }) => a.statusCode);
    await expect.poll(codes, { timeout: 10_000 }).toEqual([500]);
    const advanced = await sendRequest(`${new URL(baseUrl).origin}/_emulator/clock/advance`, 'POST', { body: { by: '1m' } });
    expect(advanced.status).toBe(200);
    await listener.waitFor((line) => line.includes('"seq":2') && line);
    const deliveries = jsonLines(listener).filter((d) => d['kind'] === 'delivery');
    expect(deliveries.map((d) => [d['eventId'], d['verdict'], d['attempt'], d['answer'].status])).toEqual([
      [first.eventId, 'valid', 1, 500],
      [first.eventId, 'valid', 2, 500], // the retry is processed again, not taken as a duplicate
    ]);
    const after = await api('GET', `/webhooks/${webhookId}/deliveries`);
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0]).toMatchObject({ eventId: first.eventId, status: expect.not.stringMatching(/succeeded/) });
    expect(after.body.data[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500]);

    expect(await listener.stop('SIGTERM')).toBe(0);
    expect(jsonLines(listener).at(-1)).toMatchObject({ kind: 'summary', received: 2, valid: 2, failedOnPurpose: 2, answers: { '500': 2 } });
  });

  it('--fail-first 1 with --forward-to: the retry reaches the handler once, signed bytes intact, and succeeds', async () => {
    const handler = await startReceiver(() => 200);
    try {
      const listener = listen(['--fail-first', '1', '--forward-to', handler.url, '--json']);
      const { webhookId, secret } = await listener.waitFor((line) => line.startsWith('{') && JSON.parse(line));
      await api('POST', '/users', { email: 'listen-forward@example.com' });
      await listener.waitFor((line) => line.includes('"fail_first"') && line);
      expect(handler.received).toHaveLength(0);
      await sendRequest(`${new URL(baseUrl).origin}/_emulator/clock/advance`, 'POST', { body: { by: '1m' } });
      const [relayed] = await handler.waitFor(1);
      expect(() =>
        verifySignature({
          secret,
          body: relayed!.body,
          signature: relayed!.headers['x-service-signature'] as string,
          timestamp: relayed!.headers['x-service-timestamp'] as string,
        }),
      ).not.toThrow();
      const deliveries = await api('GET', `/webhooks/${webhookId}/deliveries`);
      expect(deliveries.body.data[0]).toMatchObject({ status: 'succeeded', eventId: relayed!.headers['x-service-event-id'] });
      expect(deliveries.body.data[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
      expect(await listener.stop()).toBe(0);
      expect(jsonLines(listener).at(-1)).toMatchObject({ kind: 'summary', forwarded: 1, failedOnPurpose: 1 });
    } finally {
      await handler.close();
    }
  });

  it('--respond timeout holds the delivery until the emulator gives up', async () => {
    const listener = listen(['--respond', 'timeout', '--json']);
    const { webhookId } = await listener.waitFor((line) => line.startsWith('{') && JSON.parse(line));
    await api('POST', '/users', { email: 'listen-timeout@example.com' });
    const held = await listener.waitFor((line) => line.includes('"delivery"') && (JSON.parse(line) as DeliveryReport));
    expect(held.answer).toEqual({ status: null, cause: 'respond' });
    await expect
      .poll(async () => (await api('GET', `/webhooks/${webhookId}/deliveries`)).body.data[0]?.attempts[0]?.error, { timeout: 8_000 })
      .toBe('no answer within 2 s');
    expect(await listener.stop()).toBe(0);
  });

  it('--print-body shows each payload, and a webhook deleted meanwhile is reported as already gone', async () => {
    // The origin alone is taken as well as the /v1 base.
    const text = listen(['--print-body'], new URL(baseUrl).origin);
    const webhookId = (await text.waitFor(matching(/Webhook\s+(whk_\w+)/)))[1]!;
    const json = listen(['--print-body', '--json']);
    await json.waitFor((line) => line.startsWith('{') && JSON.parse(line));
    await api('POST', '/users', { email: 'listen-print-body@example.com' });
    const delivery = await json.waitFor((line) => line.includes('"delivery"') && JSON.parse(line));
    expect(delivery.body).toMatchObject({ type: 'user.created', data: { email: 'listen-print-body@example.com' } });
    await text.waitFor((line) => line.includes('"email": "listen-print-body@example.com"') && line);
    expect(text.stdout).toMatch(/✔ valid\s+→ 200\n {4}\{\n {6}"id": "evt_\w+",\n {6}"type": "user\.created"/);

    expect((await api('DELETE', `/webhooks/${webhookId}`)).status).toBe(200);
    expect(await text.stop()).toBe(0);
    expect(text.stdout).toContain(`Webhook ${webhookId} was already gone (404: deleted meanwhile, or the emulator was reset); nothing to delete.`);
    expect(text.stdout).not.toContain(`Deleted webhook ${webhookId}`);
    expect(await json.stop()).toBe(0);
  });

  it('refuses bad usage with exit 2 and one line', async () => {
    const noSecret = new SvcProcess(['webhook', 'listen', '--port', '0']);
    expect(await noSecret.exited()).toBe(2);
    expect(noSecret.stderr).toContain('give --secret');
    const badRate = new SvcProcess(['webhook', 'listen', '--secret', 'whsec_x', '--fail-rate', '1.5']);
    expect(await badRate.exited()).toBe(2);
    expect(badRate.stderr).toContain('--fail-rate must be a probability');
    const badUrl = new SvcProcess(['webhook', 'listen', '--register', '--url', 'localhost:4010', '--api-key', ACME_KEY, '--port', '0']);
    expect(await badUrl.exited()).toBe(2);
    expect(badUrl.stderr).toBe(
      'error: --url "localhost:4010" does not start with http:// or https://; give the deployment\'s address, such as http://127.0.0.1:4010 or http://127.0.0.1:4010/v1\n',
    );
    const badKey = new SvcProcess(['webhook', 'listen', '--register', '--url', baseUrl, '--api-key', 'sk_test_nope', '--port', '0']);
    expect(await badKey.exited()).toBe(1);
    expect(badKey.stderr.trim().split('\n')).toHaveLength(1);
    expect(badKey.stderr).toContain('invalid_api_key');
  });
});
