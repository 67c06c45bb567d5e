import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { signDelivery, verifySignature } from '../webhooks/signature.js';
import { seededRandom } from './policy.js';
import { createReceiver, MAX_BODY_BYTES, type Receiver, type ReceiverOptions } from './receiver.js';
import type { DeliveryReport } from './types.js';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
let counter = 0;

function event(type = 'user.created'): { id: string; body: string } {
  const id = `evt_test${++counter}x${Date.now()}`;
  const data = type === 'user.created' ? { userId: 'usr_1', email: 'ada@example.com', partyId: 'ada::1220ab' } : { any: 'thing' };
  return { id, body: JSON.stringify({ id, type, created_at: '2026-11-21T10:00:00.000Z', api_version: '2026-11-01', data }) };
}

async function post(url: string, evt: { id: string; body: string }, options: { key?: string; signal?: AbortSignal } = {}) {
  const headers = { ...signDelivery(options.key ?? secret, evt.id, evt.body), 'Content-Type': 'application/json' };
  const response = await fetch(url, { method: 'POST', headers, body: evt.body, ...(options.signal ? { signal: options.signal } : {}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function start(options: Partial<ReceiverOptions> = {}): Promise<{ receiver: Receiver; records: DeliveryReport[] }> {
  const receiver = await createReceiver({ secret, port: 0, ...options });
  open.push(receiver);
  const records: DeliveryReport[] = [];
  receiver.onDelivery((record) => records.push(record));
  return { receiver, records };
}

async function handler(respond: (index: number) => number = () => 200): Promise<TestReceiver> {
  const receiver = await startReceiver(respond);
  open.push(receiver);
  return receiver;
}

describe('createReceiver', () => {
  it('answers a valid delivery 200, a repeat of it 200 as a duplicate, and a bad one 400 with the reason', async () => {
    const { receiver, records } = await start();
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const evt = event();
    expect(await post(receiver.url, evt)).toEqual({ status: 200, body: { received: true, eventId: evt.id, duplicate: false } });
    expect(await post(`${receiver.url.replace('/webhooks', '/any/path')}`, evt)).toMatchObject({ status: 200, body: { duplicate: true } });
    const bad = await post(receiver.url, event(), { key: 'whsec_wrong' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'signature_mismatch', details: [{ check: 'signature', reason: 'signature_mismatch' }] } });
    expect(records.map((r) => [r.seq, r.verdict, r.reason, r.answer.status])).toEqual([
      [1, 'valid', null, 200],
      [2, 'duplicate', null, 200],
      [3, 'invalid', 'signature_mismatch', 400],
    ]);
    expect(records[1]!.firstSeen).toEqual({ seq: 1, receivedAt: records[0]!.receivedAt });
    expect(records[1]!.path).toBe('/any/path');
    expect(receiver.summary()).toMatchObject({
      received: 3,
      valid: 1,
      invalid: 1,
      duplicates: 1,
      invalidByReason: { signature_mismatch: 1 },
      answers: { '200': 2, '400': 1 },
    });
  });

  it('fails the first N valid deliveries on purpose and processes the retries of them', async () => {
    const { receiver, records } = await start({ failFirst: 2 });
    const evt = event();
    await post(receiver.url, event(), { key: 'whsec_wrong' }); // an invalid delivery does not use up --fail-first
    expect((await post(receiver.url, evt)).status).toBe(500);
    expect((await post(receiver.url, evt)).status).toBe(500);
    expect((await post(receiver.url, evt)).status).toBe(200);
    expect((await post(receiver.url, evt)).body).toMatchObject({ duplicate: true });
    expect(records.map((r) => `${r.verdict}:${r.attempt}:${r.answer.status}:${r.answer.cause}`)).toEqual([
      'invalid:null:400:checks_failed',
      'valid:1:500:fail_first',
      'valid:2:500:fail_first',
      'valid:3:200:ok',
      'duplicate:4:200:duplicate',
    ]);
    expect(receiver.summary().failedOnPurpose).toBe(2);
  });

  it('fails at --fail-rate from a seeded generator, the same way for the same seed', async () => {
    const first = await start({ failRate: 0.5, seed: 42 });
    const second = await start({ failRate: 0.5, seed: 42 });
    const answers = async (url: string): Promise<number[]> => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await post(url, event())).status);
      return statuses;
    };
    const a = await answers(first.receiver.url);
    expect(await answers(second.receiver.url)).toEqual(a);
    const random = seededRandom(42);
    expect(a).toEqual(Array.from({ length: 20 }, () => (random() < 0.5 ? 500 : 200)));
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it('answers --respond statuses and never marks a failed event as seen', async () => {
    const { receiver, records } = await start({ respond: { kind: 'status', status: 503 } });
    const evt = event();
    expect((await post(receiver.url, evt)).status).toBe(503);
    expect((await post(receiver.url, evt)).status).toBe(503);
    expect(records.map((r) => r.verdict)).toEqual(['valid', 'valid']);
  });

  it('holds the connection with --respond timeout until the sender gives up', async () => {
    const { receiver, records } = await start({ respond: { kind: 'timeout' } });
    // The sender gives up only once the receiver has the delivery: a fixed 400 ms from the send
    // could end before a loaded machine even reads the request, and then nothing is recorded.
    const reported = new Promise<void>((resolve) => receiver.onDelivery(() => resolve()));
    const giveUp = new AbortController();
    let settled = false;
    const sending = post(receiver.url, event(), { signal: giveUp.signal }).finally(() => (settled = true));
    sending.catch(() => undefined);
    await reported;
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Held: 400 ms after the receiver reported it, the sender still has no answer (nor a closed connection).
    expect(settled).toBe(false);
    giveUp.abort();
    await expect(sending).rejects.toThrow();
    expect(records[0]).toMatchObject({ verdict: 'valid', answer: { status: null, cause: 'respond' } });
    expect(receiver.summary().answers).toEqual({ held: 1 });
  });

  it('forwards the raw body and X-Service-* headers to the handler and answers with its status', async () => {
    const target = await handler((index) => (index === 0 ? 500 : 201));
    const { receiver, records } = await start({ forwardTo: target.url });
    const evt = event();
    expect((await post(receiver.url, evt)).status).toBe(500); // the handler failed: the sender should retry
    expect((await post(receiver.url, evt)).status).toBe(201); // the retry is forwarded again
    expect((await post(receiver.url, evt)).body).toMatchObject({ duplicate: true }); // now seen: not forwarded
    expect(target.received).toHaveLength(2);
    const relayed = target.received[1]!;
    expect(relayed.body.toString()).toBe(evt.body);
    expect(relayed.headers['content-type']).toBe('application/json');
    expect(relayed.headers['x-service-event-id']).toBe(evt.id);
    expect(() =>
      verifySignature({
        secret,
        body: relayed.body,
        signature: relayed.headers['x-service-signature'] as string,
        timestamp: relayed.headers['x-service-timestamp'] as string,
      }),
    ).not.toThrow();
    expect(records.map((r) => [r.answer.cause, r.forward?.status ?? null])).toEqual([
      ['forward', 500],
      ['forward', 201],
      ['duplicate', null],
    ]);
    expect(receiver.summary()).toMatchObject({ forwarded: 2, forwardFailed: 1 });
  });

  it('does not forward invalid deliveries, and answers 502 when the handler cannot be reached', async () => {
    const target = await handler();
    const gone = target.url;
    const { receiver: checking } = await start({ forwardTo: gone });
    await post(checking.url, event(), { key: 'whsec_wrong' });
    expect(target.received).toHaveLength(0);
    await target.close();
    const { receiver, records } = await start({ forwardTo: gone });
    expect(await post(receiver.url, event())).toMatchObject({ status: 502, body: { code: 'forward_failed' } });
    expect(records[0]!.forward).toMatchObject({ status: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('processes two simultaneous deliveries of one event once', async () => {
    const target = await handler();
    const { receiver, records } = await start({ forwardTo: target.url });
    const evt = event();
    const answers = await Promise.all([post(receiver.url, evt), post(receiver.url, evt), post(receiver.url, evt)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(target.received).toHaveLength(1);
    expect(records.map((r) => r.verdict).sort()).toEqual(['duplicate', 'duplicate', 'valid']);
  });

  it('refuses an oversized body with 413, ignores other methods, and waits for a secret', async () => {
    const { receiver, records } = await start({ secret: null });
    const evt = event();
    expect((await post(receiver.url, evt)).status).toBe(503);
    receiver.setSecret(secret);
    expect((await post(receiver.url, evt)).status).toBe(200);
    const huge = { id: evt.id, body: `{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}` };
    expect(await post(receiver.url, huge)).toMatchObject({ status: 413, body: { code: 'body_too_large' } });
    expect((await fetch(receiver.url)).status).toBe(405);
    expect(records.map((r) => [r.verdict, r.reason])).toEqual([
      ['valid', null],
      ['invalid', 'body_too_large'],
    ]);
  });

  it('reports a port in use as EADDRINUSE', async () => {
    const { receiver } = await start();
    await expect(createReceiver({ secret, port: receiver.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
