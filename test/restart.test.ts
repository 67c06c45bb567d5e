/**
 * Durability across a restart (D12): stop the emulator, start a new one on the same data
 * dir, and find every write that was acknowledged, including writes sent concurrently and
 * writes still in flight when the stop began.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore } from '../src/store/file-store.js';
import { openShares } from '../src/services/wallets.js';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';

const PARALLEL_USERS = 50;

function readDataFile(dataDir: string): { schemaVersion: number } {
  return JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8'));
}

/**
 * Opens a copy of the data dir's files as they are this instant: what a server started after
 * a crash right now would find, whatever the store's file layout.
 */
async function afterCrash(dataDir: string, check: (store: FileStore) => void): Promise<void> {
  const copy = tempDataDir();
  try {
    cpSync(dataDir, copy, { recursive: true });
    const { store } = await FileStore.open({ dataDir: copy });
    try {
      check(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe('restart on the same data dir', () => {
  const dataDir = tempDataDir();
  const running: TestEmulator[] = [];
  afterAll(async () => {
    for (const svc of running) await svc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<TestEmulator> {
    const svc = await startTestEmulator({ dataDir });
    running.push(svc);
    return svc;
  }

  const acked = {
    userIds: [] as string[],
    inFlightUserIds: [] as string[],
    appId: '',
    deletedAppId: '',
    revokedKey: '',
    liveKey: '',
    globexAppId: '',
  };

  it('first run: every acknowledged write would survive a crash the moment its answer arrives', async () => {
    const svc = await start();
    const results = await Promise.all(
      Array.from({ length: PARALLEL_USERS }, (_, i) => svc.request('POST', '/users', { body: { email: `parallel${i}@example.com`, name: `Parallel ${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array<number>(PARALLEL_USERS).fill(201));
    acked.userIds = results.map((r) => r.body.data.id);
    await afterCrash(dataDir, (store) => {
      for (const id of acked.userIds) expect(store.get('users', id)?.email).toMatch(/^parallel\d+@example\.com$/);
    });

    const app = await svc.request('POST', '/apps', { body: { name: 'Survivor', allowedOrigins: ['http://localhost:1234'] } });
    acked.appId = app.body.data.id;
    expect((await svc.request('PATCH', `/apps/${acked.appId}`, { body: { description: 'patched before the restart' } })).status).toBe(200);
    const doomed = await svc.request('POST', '/apps', { body: { name: 'Doomed' } });
    acked.deletedAppId = doomed.body.data.id;
    expect((await svc.request('DELETE', `/apps/${acked.deletedAppId}`)).status).toBe(200);
    await afterCrash(dataDir, (store) => {
      expect(store.get('apps', acked.deletedAppId)).toBeUndefined();
      expect(store.get('apps', acked.appId)?.description).toBe('patched before the restart');
    });

    const revoked = await svc.request('POST', '/api-keys', { body: { name: 'revoked before restart' } });
    acked.revokedKey = revoked.body.data.key;
    expect((await svc.request('DELETE', `/api-keys/${revoked.body.data.id}`)).status).toBe(200);
    acked.liveKey = (await svc.request('POST', '/api-keys', { body: { name: 'lives on' } })).body.data.key;

    expect(
      (
        await svc.request('PATCH', '/tenant', {
          body: { name: 'Acme After', settings: { sessionTtl: '3h', telegram: { botToken: '42:restartTokenValue_abcdefghijk' } } },
        })
      ).status,
    ).toBe(200);
    acked.globexAppId = (await svc.request('POST', '/apps', { key: GLOBEX_KEY, body: { name: 'Globex Survivor' } })).body.data.id;

    // Writes still in flight when the stop begins: each one answered 201 must survive.
    const usersBefore = svc.emulator.rt.store.count('users');
    const inFlight = Array.from({ length: 10 }, (_, i) => svc.request('POST', '/users', { body: { email: `inflight${i}@example.com` } }));
    // Stop as soon as the first of them is being written, while others are still on their way.
    for (const deadline = Date.now() + 5_000; svc.emulator.rt.store.count('users') === usersBefore && Date.now() < deadline;) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const stopping = svc.stop();
    const settled = await Promise.allSettled(inFlight);
    await stopping;
    for (const result of settled) {
      if (result.status === 'fulfilled' && result.value.status === 201) acked.inFlightUserIds.push(result.value.body.data.id);
    }
    expect(acked.inFlightUserIds.length).toBeGreaterThan(0);
    expect(readDataFile(dataDir).schemaVersion).toBe(1);
  });

  it('second run: finds every acknowledged write and does not seed again', async () => {
    const svc = await start();
    expect(svc.emulator.rt.isNew).toBe(false);

    const users = await svc.request('GET', '/users?page_size=100');
    const later = await svc.request('GET', '/users?page=2&page_size=100');
    const ids = new Set([...users.body.data, ...later.body.data].map((u: { id: string }) => u.id));
    expect(users.body.total).toBe(50 + PARALLEL_USERS + acked.inFlightUserIds.length);
    for (const id of [...acked.userIds, ...acked.inFlightUserIds]) expect(ids.has(id)).toBe(true);
    const one = await svc.request('GET', `/users/${acked.userIds[7]}`);
    expect(one.body.data).toMatchObject({ email: 'parallel7@example.com', name: 'Parallel 7', partyId: expect.stringMatching(/^parallel7::1220/) });
    const created = [...svc.emulator.rt.store.all('events')].filter((e) => e.type === 'user.created');
    expect(created.length).toBe(PARALLEL_USERS + acked.inFlightUserIds.length);

    expect((await svc.request('GET', `/apps/${acked.appId}`)).body.data).toMatchObject({
      name: 'Survivor',
      description: 'patched before the restart',
      allowedOrigins: ['http://localhost:1234'],
    });
    expect((await svc.request('GET', `/apps/${acked.deletedAppId}`)).status).toBe(404);
    expect((await svc.request('GET', `/apps/${acked.globexAppId}`, { key: GLOBEX_KEY })).status).toBe(200);

    expect((await svc.request('GET', '/apps', { key: acked.revokedKey })).body.code).toBe('invalid_api_key');
    expect((await svc.request('GET', '/apps', { key: acked.liveKey })).status).toBe(200);
    expect((await svc.request('GET', '/apps', { key: ACME_KEY })).status).toBe(200);

    const tenant = (await svc.request('GET', '/tenant')).body.data;
    expect(tenant).toMatchObject({ id: ACME_TENANT_ID, name: 'Acme After', settings: { sessionTtl: '3h', telegram: { botTokenSet: true } } });
    expect(svc.emulator.rt.store.get('tenants', ACME_TENANT_ID)?.settings.telegram.botToken).toBe('42:restartTokenValue_abcdefghijk');
  });

  it('second run: the key shares sealed in the first run still open (the seal key is kept)', async () => {
    const svc = running.at(-1)!;
    const user = svc.emulator.rt.store.get('users', acked.userIds[0]!)!;
    const wallet = svc.emulator.rt.store.get('wallets', user.walletId)!;
    expect(openShares(svc.emulator.rt.sealer, wallet).server).toHaveLength(33);
  });

  it('third run after a second round of parallel writes: nothing is lost or doubled', async () => {
    const second = running.at(-1)!;
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => second.request('POST', '/apps', { body: { name: `Burst ${i}` } })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    await second.stop();
    const third = await start();
    const apps = await third.request('GET', '/apps?search=burst&page_size=100');
    expect(apps.body.total).toBe(30);
    expect(new Set(apps.body.data.map((a: { id: string }) => a.id))).toEqual(new Set(results.map((r) => r.body.data.id)));
  });
});
