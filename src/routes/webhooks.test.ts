import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GLOBEX_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../test-support/harness.js';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { EventPayload, UserCreatedData } from '../schemas/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function register(svc: TestEmulator, url: string, events: string[] = ['*']) {
  const res = await svc.request('POST', '/webhooks', { body: { url, events } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

describe('webhook endpoints', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  beforeAll(async () => {
    svc = await startTestEmulator();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
  });

  it.each<[string, unknown, string]>([
    ['a relative url', { url: '/hook', events: ['user.created'] }, 'url'],
    ['an ftp url', { url: 'ftp://127.0.0.1/x', events: ['user.created'] }, 'url'],
    ['no events', { url: 'http://127.0.0.1/x', events: [] }, 'events'],
    ['an unknown event type', { url: 'http://127.0.0.1/x', events: ['user.exploded'] }, 'events.0'],
    ['a missing url', { events: ['*'] }, 'url'],
  ])('refuses %s with a per-field detail', async (_name, body, path) => {
    const res = await svc.request('POST', '/webhooks', { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers the secret once, never in the list, and rotates it', async () => {
    const created = await register(svc, receiver.url, ['user.created']);
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const listed = await svc.request('GET', '/webhooks');
    expect(listed.text).not.toContain(created.secret);
    expect(listed.body.data.some((w: { id: string }) => w.id === created.id)).toBe(true);
    const rotated = await svc.request('PATCH', `/webhooks/${created.id}`, { body: { rotateSecret: true } });
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.secret);
    const patched = await svc.request('PATCH', `/webhooks/${created.id}`, { body: { enabled: false } });
    expect(patched.body.data.secret).toBeUndefined();
    expect(patched.body.data.enabled).toBe(false);
  });

  it('hides another tenant’s webhook (404)', async () => {
    const created = await register(svc, receiver.url);
    for (const [method, path] of [
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await svc.request(method, `/webhooks/${created.id}${path}`, { key: GLOBEX_KEY, body: method === 'PATCH' ? { enabled: true } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  it('signs a user.created delivery that an independent HMAC accepts', async () => {
    const fresh = await startReceiver();
    const { secret, id } = await register(svc, fresh.url, ['user.created']);
    const user = await svc.request('POST', '/users', { body: { email: `hook-${Date.now()}@example.com` } });
    expect(user.status).toBe(201);
    const [request] = await fresh.waitFor(1);
    const { headers } = request!;
    const body = request!.body.toString();
    const timestamp = headers['x-service-timestamp'] as string;
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
    const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    expect(headers['x-service-signature']).toBe(`sha256=${expected}`);
    expect(headers['content-type']).toBe('application/json');
    const payload = EventPayload.parse(JSON.parse(body));
    expect(headers['x-service-event-id']).toBe(payload.id);
    expect(payload.type).toBe('user.created');
    expect(payload.api_version).toBe('2026-11-01');
    expect(Object.keys(payload).sort()).toEqual(['api_version', 'created_at', 'data', 'id', 'type']);
    expect(UserCreatedData.parse(payload.data)).toEqual({ userId: user.body.data.id, email: user.body.data.email, partyId: user.body.data.partyId });
    const deliveries = await svc.request('GET', `/webhooks/${id}/deliveries`);
    expect(deliveries.body.data[0]).toMatchObject({ eventId: payload.id, status: 'succeeded' });
    await fresh.close();
  });

  it('sends a test event to that webhook only and answers the delivery', async () => {
    const one = await startReceiver();
    const two = await startReceiver();
    const first = await register(svc, one.url, ['tx.completed']);
    await register(svc, two.url, ['*']);
    const res = await svc.request('POST', `/webhooks/${first.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ eventType: 'tx.completed', status: 'succeeded' });
    expect(res.body.data.attempts).toHaveLength(1);
    expect(one.received).toHaveLength(1);
    expect(two.received).toHaveLength(0);
    const typed = await svc.request('POST', `/webhooks/${first.id}/test`, { body: { type: 'mfa.enabled' } });
    expect(typed.body.data.eventType).toBe('mfa.enabled');
    await one.close();
    await two.close();
  });
});

describe('retries, the DLQ and the clock', () => {
  let svc: TestEmulator | undefined;
  let receiver: TestReceiver | undefined;
  afterEach(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('retries a failing receiver 1m/5m/30m/2h/24h apart, then moves it to the DLQ; a DLQ retry delivers it', async () => {
    svc = await startTestEmulator();
    receiver = await startReceiver(() => 500);
    const webhook = await register(svc, receiver.url, ['user.created']);
    await svc.request('POST', '/users', { body: { email: 'retry@example.com' } });
    await receiver.waitFor(1);
    const started = Date.now();
    const advanced = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '2d' } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.data.fired).toBe(5);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(receiver.received).toHaveLength(6);
    const ids = new Set(receiver.received.map((r) => r.headers['x-service-event-id']));
    expect(ids.size).toBe(1);

    const dead = await svc.request('GET', `/webhooks/${webhook.id}/deliveries?status=dead`);
    expect(dead.body.data).toHaveLength(1);
    const delivery = dead.body.data[0];
    const times = delivery.attempts.map((a: { at: string }) => Date.parse(a.at));
    const gaps = times.slice(1).map((t: number, i: number) => t - times[i]);
    expect(gaps).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 24 * HOUR]);
    expect(delivery.attempts.every((a: { statusCode: number; error: string }) => a.statusCode === 500 && a.error)).toBe(true);

    const dlq = await svc.request('GET', '/_emulator/dlq', { key: null });
    expect(dlq.body.data.map((d: { id: string }) => d.id)).toContain(delivery.id);

    receiver.respond = () => 200;
    const retried = await svc.request('POST', `/_emulator/deliveries/${delivery.id}/retry`, { key: null });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: delivery.id, status: 'succeeded', eventId: delivery.eventId });
    expect(retried.body.data.attempts).toHaveLength(7);
    expect(receiver.received[6]!.headers['x-service-event-id']).toBe(delivery.eventId);
    const again = await svc.request('POST', `/_emulator/deliveries/${delivery.id}/retry`, { key: null });
    expect(again.status).toBe(409);
  });

  it('runs the whole schedule in real time with --clock-speed', async () => {
    svc = await startTestEmulator({ clock: { speed: 200_000 } });
    receiver = await startReceiver(() => 503);
    await register(svc, receiver.url, ['api_key.created']);
    await svc.request('POST', '/api-keys', { body: { name: 'fast clock' } });
    // About half a second of real time for the whole schedule at this speed; the waits leave a
    // loaded machine room, and fail only if the attempts never come.
    await receiver.waitFor(6, 15_000);
    const deliveries = [...svc.emulator.rt.store.all('deliveries')];
    await expect.poll(() => svc!.emulator.rt.store.get('deliveries', deliveries[0]!.id)?.status, { timeout: 10_000 }).toBe('dead');
  });

  it('resumes a stored schedule after a restart, with the same event id and nothing sent twice', async () => {
    const dataDir = tempDataDir();
    svc = await startTestEmulator({ dataDir });
    receiver = await startReceiver(() => 500);
    await register(svc, receiver.url, ['user.created']);
    await svc.request('POST', '/users', { body: { email: 'restart@example.com' } });
    await receiver.waitFor(1);
    await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '6m' } });
    expect(receiver.received).toHaveLength(3);
    const now = (await svc.request('GET', '/_emulator/clock', { key: null })).body.data.now as string;
    await svc.stop();

    svc = await startTestEmulator({ dataDir, clock: { startTime: new Date(now) } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(3);
    await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '29m' } });
    expect(receiver.received).toHaveLength(3);
    await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '1m' } });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
  });

  it.each<[string, (r: TestReceiver) => string]>([
    ['a refused connection', () => 'http://127.0.0.1:1/hook'],
    [
      'a redirect',
      (r) => {
        r.respond = () => 302;
        return r.url;
      },
    ],
  ])('records %s as a failed attempt with a readable error', async (_name, target) => {
    svc = await startTestEmulator();
    receiver = await startReceiver();
    const webhook = await register(svc, target(receiver), ['*']);
    const res = await svc.request('POST', `/webhooks/${webhook.id}/test`);
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.attempts[0].error).toMatch(/refused|redirect/);
    expect(res.body.data.nextAttemptAt).not.toBeNull();
  });
});
