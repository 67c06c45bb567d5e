/**
 * Snapshots (docs/control-plane.md#snapshots) on a real emulator with a temp data dir and a real
 * webhook receiver: a restore brings back every listing, every record and the clock, and a
 * retry planned before the save fires after the restore when the clock reaches it.
 */
import { copyFileSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/client/index.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

let svc: TestEmulator | undefined;
let receiver: TestReceiver | undefined;

afterEach(async () => {
  await svc?.close();
  await receiver?.close();
  svc = undefined;
  receiver = undefined;
});

/** Every listing of both tenants and of the control plane: what a restore must give back as it was. */
async function listings(t: TestEmulator): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const [tenant, key] of [
    ['acme', ACME_KEY],
    ['globex', GLOBEX_KEY],
  ] as const) {
    for (const path of ['/users?page_size=100', '/apps?page_size=100', '/api-keys', '/webhooks', '/tenant']) {
      const answer = await t.request('GET', path, { key });
      expect(answer.status, `${tenant} ${path}`).toBe(200);
      seen[`${tenant} ${path}`] = answer.body;
    }
  }
  for (const webhook of (seen['acme /webhooks'] as { data: Array<{ id: string }> }).data) {
    seen[`acme deliveries ${webhook.id}`] = (await t.request('GET', `/webhooks/${webhook.id}/deliveries`)).body;
  }
  seen['events'] = (await t.request('GET', '/_emulator/events?limit=1000')).body;
  seen['dlq'] = (await t.request('GET', '/_emulator/dlq')).body;
  return seen;
}

/** Every record of every collection, as the store holds them (`usage` left out when asked: a stop folds in the calls counted). */
function records(t: TestEmulator, withUsage = true): string {
  const held: Record<string, unknown[]> = { ...t.emulator.rt.store.heldRecords() };
  if (!withUsage) delete held['usage'];
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(held).map(([name, list]) => [name, list.map((r) => (r instanceof Object && 'text' in r ? JSON.parse((r as { text: string }).text) : r))]),
    ),
  );
}

async function clockOf(t: TestEmulator): Promise<{ now: string; speed: number }> {
  return (await t.request('GET', '/_emulator/clock')).body.data;
}

describe('snapshots', () => {
  it('restores every listing, every record and the clock, and a retry planned before the save fires after the restore', async () => {
    // The receiver fails the first attempt and takes every later one; the other one fails them all.
    receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
    const failing = await startReceiver(() => 500);
    svc = await startTestEmulator();
    const t = svc;
    try {
      // A nearly still clock, so the times compared are those saved, not real time passing.
      await t.request('POST', '/_emulator/clock', { body: { now: '2026-12-01T10:00:00.000Z', speed: 0.000001 } });
      // A webhook whose every attempt fails fills the DLQ.
      const dead = (await t.request('POST', '/webhooks', { body: { url: failing.url, events: ['user.updated'] } })).body.data;
      await t.request('POST', '/_emulator/trigger', { body: { type: 'user.updated' } });
      await t.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
      expect((await t.request('GET', '/_emulator/dlq')).body.data).toHaveLength(1);
      await t.request('DELETE', `/webhooks/${dead.id}`);
    } finally {
      await failing.close();
    }
    const hook = (await t.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'] } })).body.data;
    expect((await t.request('POST', '/users', { body: { email: 'snap.one@acme.test', name: 'Snap One' } })).status).toBe(201);
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const failed = (await t.request('GET', `/webhooks/${hook.id}/deliveries`)).body.data as Array<{ status: string; nextAttemptAt: string | null }>;
    // The user's delivery failed once and waits for its retry, a minute on.
    expect(failed.map((d) => d.status)).toEqual(['failed']);
    expect(failed[0]!.nextAttemptAt).not.toBeNull();

    const client = createClient({ baseUrl: t.baseUrl, apiKey: ACME_KEY });
    const saved = await client.emulator.snapshots.save('before');
    expect(saved.status).toBe(201);
    const before = { listings: await listings(t), records: records(t), clock: await clockOf(t) };
    const sent = receiver.received.length;

    // Everything changes: a new user, the DLQ emptied, another tenant's key, the clock a day on and at another speed.
    await t.request('POST', '/users', { body: { email: 'snap.two@acme.test', name: 'Snap Two' } });
    await t.request('POST', '/_emulator/dlq/retry');
    await t.request('POST', '/api-keys', { key: GLOBEX_KEY, body: { name: 'later' } });
    await t.request('POST', '/_emulator/clock/advance', { body: { by: '1d' } });
    await t.request('POST', '/_emulator/clock', { body: { speed: 2 } });
    expect(records(t)).not.toBe(before.records);

    const restored = await client.emulator.snapshots.restore('before');
    expect(restored.status).toBe(200);
    expect(records(t)).toBe(before.records);
    expect(await listings(t)).toEqual(before.listings);
    const clock = await clockOf(t);
    expect(clock.speed).toBe(before.clock.speed);
    expect(Math.abs(Date.parse(clock.now) - Date.parse(before.clock.now))).toBeLessThan(5);

    // The retry planned before the save is planned again: it fires when the clock reaches it, and succeeds.
    const received = receiver.received.length;
    expect(received).toBeGreaterThan(sent);
    await t.request('POST', '/_emulator/clock/advance', { body: { by: '2m' } });
    const after = (await t.request('GET', `/webhooks/${hook.id}/deliveries`)).body.data as Array<{ status: string; attempts: unknown[] }>;
    expect(after.map((d) => [d.status, d.attempts.length])).toEqual([['succeeded', 2]]);
  });

  it('lists, describes and deletes snapshots; keeps them 0600 in a 0700 folder; refuses bad and unknown names', async () => {
    svc = await startTestEmulator();
    const t = svc;
    const client = createClient({ baseUrl: t.baseUrl, apiKey: ACME_KEY });
    const snapshots = client.emulator.snapshots;
    expect((await snapshots.list()).body).toEqual({ data: [] });
    expect((await snapshots.save('a.1_x-y')).status).toBe(201);
    expect((await snapshots.save('b')).status).toBe(201);
    const list = (await snapshots.list()).body as { data: Array<{ name: string; tenants: number; records: number }> };
    expect(list.data.map((s) => s.name)).toEqual(['a.1_x-y', 'b']);
    expect(list.data[0]!.tenants).toBe(2);
    expect(list.data[0]!.records).toBeGreaterThan(200);
    const dir = join(t.dataDir, 'snapshots');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'b.json')).mode & 0o777).toBe(0o600);
    expect((await snapshots.get('b')).status).toBe(200);

    for (const bad of ['.hidden', 'a/b', '..', 'x'.repeat(101), 'spa ce']) {
      const answer = await t.request('POST', '/_emulator/snapshots', { body: { name: bad } });
      expect(answer.status, bad).toBe(400);
      expect(answer.body.code).toBe('validation_error');
    }
    for (const [method, path] of [
      ['GET', '/_emulator/snapshots/nope'],
      ['POST', '/_emulator/snapshots/nope/restore'],
      ['DELETE', '/_emulator/snapshots/nope'],
    ] as const) {
      const answer = await t.request(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('not_found');
    }
    expect((await t.request('GET', '/_emulator/snapshots/..%2Fdb')).status).toBe(400);

    expect((await snapshots.delete('b')).body).toEqual({ data: { name: 'b', deleted: true } });
    expect(((await snapshots.list()).body as { data: Array<{ name: string }> }).data.map((s) => s.name)).toEqual(['a.1_x-y']);
  });

  it('restores what the file holds now: one replaced or removed after it was saved is read again, not answered from memory', async () => {
    svc = await startTestEmulator();
    const t = svc;
    await t.request('POST', '/_emulator/snapshots', { body: { name: 'mine' } });
    await t.request('POST', '/users', { body: { email: 'only.in.theirs@acme.test', name: 'Theirs' } });
    await t.request('POST', '/_emulator/snapshots', { body: { name: 'theirs' } });
    const theirs = records(t);
    const dir = join(t.dataDir, 'snapshots');
    // Another copy of the file put in its place (a teammate's, say), as the saved one is kept in memory.
    copyFileSync(join(dir, 'theirs.json'), join(dir, '.incoming'));
    renameSync(join(dir, '.incoming'), join(dir, 'mine.json'));
    expect((await t.request('POST', '/_emulator/snapshots/mine/restore')).status).toBe(200);
    expect(records(t)).toBe(theirs);
    // A file cut short is refused, never restored from memory.
    const text = readFileSync(join(dir, 'theirs.json'), 'utf8');
    writeFileSync(join(dir, 'theirs.json'), text.slice(0, text.length / 2));
    const cut = await t.request('POST', '/_emulator/snapshots/theirs/restore');
    expect(cut.status).toBe(409);
    expect(cut.body.code).toBe('conflict');
    unlinkSync(join(dir, 'theirs.json'));
    expect((await t.request('POST', '/_emulator/snapshots/theirs/restore')).status).toBe(404);
  });

  it('starts from a snapshot with --snapshot, and refuses an unknown one', async () => {
    svc = await startTestEmulator();
    const first = svc;
    await first.request('POST', '/users', { body: { email: 'kept@acme.test', name: 'Kept' } });
    await first.request('POST', '/_emulator/snapshots', { body: { name: 'start' } });
    const kept = records(first);
    await first.request('POST', '/users', { body: { email: 'dropped@acme.test', name: 'Dropped' } });
    await first.stop();

    const again = await startTestEmulator({ dataDir: first.dataDir, snapshot: 'start' });
    let written: string;
    try {
      expect(records(again)).toBe(kept);
      expect((await again.request('GET', '/users?search=dropped')).body.data).toEqual([]);
      // A write after the restore goes on from it, and both are on disk: a start without --snapshot finds them.
      expect((await again.request('POST', '/users', { body: { email: 'after@acme.test', name: 'After' } })).status).toBe(201);
      written = records(again, false);
    } finally {
      await again.stop();
    }
    const reopened = await startTestEmulator({ dataDir: first.dataDir });
    try {
      expect(records(reopened, false)).toBe(written);
    } finally {
      await reopened.stop();
    }
    await expect(startTestEmulator({ dataDir: first.dataDir, snapshot: 'missing' })).rejects.toThrow(/snapshot missing not found/);
  });

  it('keeps snapshots in memory for an in-memory store', async () => {
    svc = await startTestEmulator({ inMemory: true });
    const t = svc;
    await t.request('POST', '/_emulator/snapshots', { body: { name: 'mem' } });
    const kept = records(t);
    await t.request('POST', '/users', { body: { email: 'gone@acme.test', name: 'Gone' } });
    expect((await t.request('POST', '/_emulator/snapshots/mem/restore')).status).toBe(200);
    expect(records(t)).toBe(kept);
  });
});
