/**
 * Crash safety (DESIGN D12, D9): `svc serve` as a real process on a data dir takes concurrent
 * writes (users, apps and their changes and deletions, webhooks, and user.created events whose
 * deliveries stay pending because the receiver answers 500) and is killed with SIGKILL at
 * random moments, six times. After each restart every write that got a 2xx is there, db.json
 * parses, and at the end every delivery still waiting is sent again with its own event id when
 * the emulator clock is advanced; no event is ever sent under a new id.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const KILLS = 6;
const WORKERS = 8;
const work = mkdtempSync(join(tmpdir(), 'svc-crash-'));
const dataDir = join(work, 'data');
const running: ServeProcess[] = [];

/**
 * What the server acknowledged; `maybe` holds a rename, and `deleting` a delete, whose answer
 * the kill cut off: the change may or may not have reached the disk first.
 */
interface Acked {
  users: Map<string, string>;
  apps: Map<string, { name: string; maybe: string | null; deleting?: boolean }>;
  deletedApps: Set<string>;
  webhooks: Set<string>;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': ACME_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** One client doing writes one after another until the server dies under it. */
async function worker(base: string, acked: Acked, tag: string): Promise<void> {
  for (let i = 0; ; i++) {
    const name = `${tag}-${i}`;
    const user = await call(base, 'POST', '/users', { email: `${name}@crash.test` });
    expect(user.status).toBe(201);
    acked.users.set(user.body.data.id, `${name}@crash.test`);
    const app = await call(base, 'POST', '/apps', { name });
    expect(app.status).toBe(201);
    const appId: string = app.body.data.id;
    acked.apps.set(appId, { name, maybe: null });
    const renamed = `${name} renamed`;
    acked.apps.get(appId)!.maybe = renamed;
    const patched = await call(base, 'PATCH', `/apps/${appId}`, { name: renamed });
    expect(patched.status).toBe(200);
    acked.apps.set(appId, { name: renamed, maybe: null });
    if (i % 3 === 2) {
      acked.apps.get(appId)!.deleting = true;
      const removed = await call(base, 'DELETE', `/apps/${appId}`);
      expect(removed.status).toBe(200);
      acked.apps.delete(appId);
      acked.deletedApps.add(appId);
    }
    if (i % 4 === 3) {
      const hook = await call(base, 'POST', '/webhooks', { url: `http://127.0.0.1:9/${name}`, events: ['mfa.enabled'] });
      expect(hook.status).toBe(201);
      acked.webhooks.add(hook.body.data.id);
    }
  }
}

/** Runs `check` over `items`, a few at a time. */
async function eachLimited<T>(items: T[], check: (item: T) => Promise<void>, width = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await check(items[next++]!);
    }),
  );
}

async function expectAllThere(base: string, acked: Acked): Promise<void> {
  await eachLimited([...acked.users], async ([id, email]) => {
    const res = await call(base, 'GET', `/users/${id}`);
    expect(res.status, `acknowledged user ${id}`).toBe(200);
    expect(res.body.data.email).toBe(email);
  });
  await eachLimited([...acked.apps], async ([id, { name, maybe, deleting }]) => {
    const res = await call(base, 'GET', `/apps/${id}`);
    if (deleting && res.status === 404) {
      // The delete landed before the kill cut its answer off: it is as good as acknowledged.
      acked.apps.delete(id);
      acked.deletedApps.add(id);
      return;
    }
    expect(res.status, `acknowledged app ${id}`).toBe(200);
    expect([name, maybe]).toContain(res.body.data.name);
  });
  await eachLimited([...acked.deletedApps], async (id) => {
    expect((await call(base, 'GET', `/apps/${id}`)).status, `deleted app ${id}`).toBe(404);
  });
  const hooks = await call(base, 'GET', '/webhooks');
  const hookIds = new Set((hooks.body.data as Array<{ id: string }>).map((hook) => hook.id));
  for (const id of acked.webhooks) expect(hookIds.has(id), `acknowledged webhook ${id}`).toBe(true);
}

interface DeliveryView {
  id: string;
  eventId: string;
  status: string;
  nextAttemptAt: string | null;
}

describe('svc serve killed with SIGKILL while it writes', () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    await ensureBuilt();
    receiver = await startReceiver(() => 500);
  }, 120_000);
  afterAll(async () => {
    for (const svc of running) if (svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL');
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(`loses nothing acknowledged over ${KILLS} kills, and resumes every pending delivery with its event id`, async () => {
    const acked: Acked = { users: new Map(), apps: new Map(), deletedApps: new Set(), webhooks: new Set() };
    const serve = async (): Promise<ServeProcess> => {
      const svc = await startServeProcess(['--data-dir', dataDir, '--rate-limit', 'off', '--quiet']);
      running.push(svc);
      return svc;
    };
    let svc = await serve();
    const hook = await call(svc.baseUrl, 'POST', '/webhooks', { url: receiver.url, events: ['user.created'] });
    expect(hook.status).toBe(201);
    const hookId: string = hook.body.data.id;
    acked.webhooks.add(hookId);

    const delays: number[] = [];
    for (let round = 0; round < KILLS; round++) {
      const usersBefore = acked.users.size;
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(svc.baseUrl, acked, `r${round}w${w}`).catch((error: unknown) => error));
      const delay = 150 + Math.floor(Math.random() * 500);
      delays.push(delay);
      await new Promise((r) => setTimeout(r, delay));
      // A loaded machine acknowledges fewer writes in the same time: the kill waits, if need be,
      // until this round has had as many as it has workers, so every round kills a server at work.
      for (const deadline = Date.now() + 10_000; acked.users.size - usersBefore < WORKERS && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(acked.users.size - usersBefore, `users acknowledged in round ${round} before its kill`).toBeGreaterThanOrEqual(WORKERS);
      svc.child.kill('SIGKILL');
      expect((await svc.exited).signal).toBe('SIGKILL');
      // Every worker stops on a network error, never on a wrong answer.
      for (const outcome of await Promise.all(workers))
        expect(String(outcome), `kill delays ${delays.join(', ')}`).toMatch(/fetch failed|other side closed|ECONNRESET|ECONNREFUSED/i);
      expect(() => JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8'))).not.toThrow();

      svc = await serve();
      await expectAllThere(svc.baseUrl, acked);
    }
    expect(acked.users.size, 'writes acknowledged between the kills').toBeGreaterThanOrEqual(KILLS * WORKERS);

    // Every acknowledged user has exactly one user.created event, and a delivery of it to the hook.
    const events = (await call(svc.origin, 'GET', '/_emulator/events?type=user.created&limit=1000')).body.data as Array<{
      id: string;
      data: { userId: string };
    }>;
    const eventOfUser = new Map<string, string>();
    for (const event of events) {
      expect(eventOfUser.has(event.data.userId), `a second user.created for ${event.data.userId}`).toBe(false);
      eventOfUser.set(event.data.userId, event.id);
    }
    const deliveries = (await call(svc.baseUrl, 'GET', `/webhooks/${hookId}/deliveries`)).body.data as DeliveryView[];
    const deliveredEvents = new Set(deliveries.map((d) => d.eventId));
    for (const id of acked.users.keys()) expect(deliveredEvents.has(eventOfUser.get(id)!), `delivery for user ${id}`).toBe(true);
    // Whatever reached the receiver carried an event id the store knows: nothing went out as a new event.
    const known = new Set(events.map((e) => e.id));
    for (const request of receiver.received) expect(known.has(String(request.headers['x-service-event-id']))).toBe(true);

    // Each delivery still waiting goes out again, with its own event id, once its retry is due.
    const waiting = deliveries.filter((d) => d.nextAttemptAt !== null);
    expect(waiting.length).toBeGreaterThan(0);
    const before = receiver.received.length;
    const advanced = await call(svc.origin, 'POST', '/_emulator/clock/advance', { by: '2m' });
    expect(advanced.status).toBe(200);
    expect(advanced.body.data.fired).toBeGreaterThanOrEqual(waiting.length);
    await receiver.waitFor(before + waiting.length);
    const resent = new Set(receiver.received.slice(before).map((r) => String(r.headers['x-service-event-id'])));
    for (const delivery of waiting) expect(resent.has(delivery.eventId), `retry of ${delivery.id}`).toBe(true);

    svc.child.kill('SIGTERM');
    expect((await svc.exited).code).toBe(0);
  }, 60_000);
});
