/**
 * A disk that fails under a running server (DESIGN D6, D12): full in the middle of a journal
 * append, a data dir the server may no longer open files in, and a full disk while the store
 * compacts on stop. Each failed write answers 503 store_unavailable in the envelope, reads go
 * on, and nothing already acknowledged is lost, now or after a crash. Root ignores file
 * modes, so the errors are injected where Node reaches the disk.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { FileStore } from '../src/store/file-store.js';

/** When set, opening a file under the data dir fails with this code (a permission error). */
const refuseOpen: { code: string | null } = { code: null };

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = async (...args) => {
    if (refuseOpen.code !== null) throw Object.assign(new Error(`${refuseOpen.code}: refused, open '${String(args[0])}'`), { code: refuseOpen.code });
    return real.open(...args);
  };
  return { ...real, open, default: { ...real, open } };
});

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  refuseOpen.code = null;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function fileHandlePrototype(): Promise<{ write(data: string): Promise<unknown> }> {
  const handle = await fsPromises.open(import.meta.filename, 'r');
  await handle.close();
  return Object.getPrototypeOf(handle) as { write(data: string): Promise<unknown> };
}

/** A copy of the data dir opened as the next server would after a crash at this instant. */
async function afterCrash(dir: string): Promise<FileStore> {
  const copy = tempDataDir();
  dirs.push(copy);
  cpSync(dir, copy, { recursive: true });
  return (await FileStore.open({ dataDir: copy })).store;
}

async function createApp(svc: TestEmulator, name: string): Promise<string> {
  const res = await svc.request('POST', '/apps', { body: { name } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

function expectStoreUnavailable(res: { status: number; body: any; text: string }): void {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: expect.stringMatching(/cannot be written/), code: 'store_unavailable', details: [] });
  expect(res.text).not.toMatch(/\n\s+at /);
}

describe('a disk that fails under a running server', () => {
  it('full in the middle of an append: 503, the torn bytes are cut, and every acknowledged write survives a crash', async () => {
    const svc = await startTestEmulator();
    dirs.push(svc.dataDir);
    try {
      const before = await createApp(svc, 'Before the disk filled');
      const proto = await fileHandlePrototype();
      const realWrite = proto.write;
      // Half the line reaches the file, then the disk is full.
      vi.spyOn(proto, 'write').mockImplementation(async function (this: unknown, data: string) {
        await realWrite.call(this, data.slice(0, Math.floor(data.length / 2)));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      });
      expectStoreUnavailable(await svc.request('POST', '/apps', { body: { name: 'Refused while full' } }));
      expect((await svc.request('GET', `/apps/${before}`)).status).toBe(200);

      vi.mocked(proto.write).mockRestore();
      const after = await createApp(svc, 'After space was freed');
      const crashed = await afterCrash(svc.dataDir);
      expect(crashed.get('apps', before)?.name).toBe('Before the disk filled');
      expect(crashed.get('apps', after)?.name).toBe('After space was freed');
      // The 503'd change stayed in memory and went out with the next batch (docs/serve.md#reliability).
      expect([...crashed.all('apps')].some((app) => app.name === 'Refused while full')).toBe(true);
      await crashed.close();
      // The journal holds only whole lines: the torn half was cut before the next append.
      for (const line of readFileSync(join(svc.dataDir, 'db.journal'), 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await svc.stop();
    }
  });

  it('files it may not open (a permission error): 503 on writes, reads go on, and it recovers with nothing lost', async () => {
    const svc = await startTestEmulator();
    dirs.push(svc.dataDir);
    try {
      const before = await createApp(svc, 'Before permissions changed');
      // Seeding compacted and the next compaction reopens the journal: make that the moment it is refused.
      await svc.emulator.rt.store.compact();
      refuseOpen.code = 'EACCES';
      expectStoreUnavailable(await svc.request('POST', '/users', { body: { email: 'refused@example.com' } }));
      expect((await svc.request('GET', `/apps/${before}`)).body.data.name).toBe('Before permissions changed');
      const ready = await svc.request('GET', '/readyz', { key: null });
      expect([ready.status, ready.body.code]).toEqual([503, 'store_unavailable']);

      refuseOpen.code = null;
      expect((await svc.request('GET', '/readyz', { key: null })).status).toBe(200);
      const after = await createApp(svc, 'After permissions came back');
      const crashed = await afterCrash(svc.dataDir);
      expect(crashed.get('apps', before)).toBeDefined();
      expect(crashed.get('apps', after)).toBeDefined();
      await crashed.close();
    } finally {
      await svc.stop();
    }
  });

  it('full while compacting on stop: the stop still ends, and the journal keeps what db.json could not take', async () => {
    const svc = await startTestEmulator();
    dirs.push(svc.dataDir);
    const ids = [await createApp(svc, 'Kept one'), await createApp(svc, 'Kept two')];
    const proto = await fileHandlePrototype();
    vi.spyOn(proto, 'write').mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    await svc.stop();
    vi.mocked(proto.write).mockRestore();
    const snapshot = JSON.parse(readFileSync(join(svc.dataDir, 'db.json'), 'utf8')) as { apps: Array<{ id: string }> };
    expect(snapshot.apps.map((app) => app.id)).not.toContain(ids[0]);
    const { store } = await FileStore.open({ dataDir: svc.dataDir });
    for (const id of ids) expect(store.get('apps', id)).toBeDefined();
    await store.close();
  });
});
