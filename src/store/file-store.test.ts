/**
 * The store (D12) on a real temp dir: a write settles only once it is in the file, concurrent
 * writes share file writes, the file carries its schema version, a file this version cannot
 * read is refused and left byte for byte, and a disk that refuses writes is a 503.
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, tempDataDir } from '../test-support/harness.js';
import { JournaledJsonFile, SYNCED_WRITES } from './journal-file.js';
import { LOCK_FILE } from './lock.js';
import type { AppRecord } from './records.js';
import { DATA_FILE, SCHEMA_VERSION, FileStore, StoreOpenError } from './file-store.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

let counter = 0;
function app(name = `app ${++counter}`): AppRecord {
  const now = new Date().toISOString();
  return { id: `app_test${++counter}`, tenantId: 'ten_test', name, description: null, allowedOrigins: [], createdAt: now, updatedAt: now };
}

/** What is durable in the dir right now: the snapshot plus the journal, read without repairing. */
async function readFile(dir: string): Promise<{ schemaVersion: number; apps: AppRecord[] }> {
  const document = await new JournaledJsonFile<{ schemaVersion: number; apps?: AppRecord[] }>(join(dir, DATA_FILE)).read(false);
  return { schemaVersion: document?.schemaVersion ?? 0, apps: document?.apps ?? [] };
}

/**
 * What a crash at this instant would leave: a copy of the data dir's files, opened as the next
 * server would open them. Holds whatever layout the store uses (snapshot, journal, both).
 */
async function afterCrash(dir: string): Promise<FileStore> {
  const copy = freshDir();
  cpSync(dir, copy, { recursive: true });
  return (await FileStore.open({ dataDir: copy })).store;
}

/** FileHandle's prototype, to count (or fail) the fsyncs every durable write ends with. */
async function fileHandlePrototype(): Promise<{ datasync(): Promise<void>; write(data: string): Promise<unknown> }> {
  const handle = await open(import.meta.filename, 'r');
  await handle.close();
  return Object.getPrototypeOf(handle) as { datasync(): Promise<void>; write(data: string): Promise<unknown> };
}

/** The call that makes a journal append durable: the write itself under O_DSYNC, else the fdatasync after it. */
const DURABLE_STEP = SYNCED_WRITES ? 'write' : 'datasync';

describe('Store writes', () => {
  it('opens an empty dir as new, and settles each write only once a crash could not lose it', async () => {
    const dir = freshDir();
    const { store, isNew } = await FileStore.open({ dataDir: dir });
    expect(isNew).toBe(true);
    for (let i = 0; i < 3; i++) {
      const record = app();
      await store.write(() => store.insert('apps', record));
      const crashed = await afterCrash(dir);
      expect(crashed.get('apps', record.id)).toEqual(record);
      expect(crashed.count('apps')).toBe(i + 1);
      await crashed.close();
    }
    await store.close();
    expect((await readFile(dir)).schemaVersion).toBe(SCHEMA_VERSION);
    // write-then-rename leaves no temp file behind.
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const reopened = await FileStore.open({ dataDir: dir });
    expect(reopened.isNew).toBe(false);
    expect(reopened.store.count('apps')).toBe(3);
    await reopened.store.close();
  });

  it('coalesces concurrent writes into a few fsyncs, and a crash right after keeps every one', async () => {
    const dir = freshDir();
    const { store } = await FileStore.open({ dataDir: dir });
    await store.write(() => store.insert('apps', app()));
    const fsyncs = vi.spyOn(await fileHandlePrototype(), DURABLE_STEP);
    const records = Array.from({ length: 100 }, () => app());
    await Promise.all(records.map((record) => store.write(() => store.insert('apps', record))));
    expect(fsyncs.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(fsyncs.mock.calls.length).toBeLessThanOrEqual(3);
    vi.restoreAllMocks();
    const crashed = await afterCrash(dir);
    for (const record of records) expect(crashed.get('apps', record.id)).toBeDefined();
    await crashed.close();
    await store.close();
  });

  it('settles every write that a compaction starting meanwhile interrupts, and keeps them all', async () => {
    const dir = freshDir();
    const { store } = await FileStore.open({ dataDir: dir });
    await store.write(() => store.insert('apps', app()));
    const records = Array.from({ length: 200 }, () => app());
    // Writes go on across event-loop turns while the compaction rotates the journal: a flush
    // scheduled before the rotation must wait for it rather than append to a closing file.
    const compaction = store.compact();
    const writes: Array<Promise<unknown>> = [];
    for (const [i, record] of records.entries()) {
      writes.push(store.write(() => store.insert('apps', record)));
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(Promise.all(writes)).resolves.toHaveLength(200);
    await compaction;
    const crashed = await afterCrash(dir);
    for (const record of records) expect(crashed.get('apps', record.id)).toBeDefined();
    await crashed.close();
    await store.close();
  });

  it('fails a batch the disk took only part of, and keeps the journal whole', async () => {
    const dir = freshDir();
    const { store } = await FileStore.open({ dataDir: dir });
    const kept = app();
    await store.write(() => store.insert('apps', kept));
    const prototype = await fileHandlePrototype();
    const realWrite = prototype.write;
    // A full disk: the journal takes all but the last byte of the line.
    const short = vi.spyOn(prototype, 'write').mockImplementationOnce(async function (this: unknown, data: unknown) {
      const bytes = data as Buffer;
      const { bytesWritten } = (await realWrite.call(this, bytes.subarray(0, bytes.byteLength - 1) as never)) as { bytesWritten: number };
      return { bytesWritten, buffer: bytes };
    });
    const lost = app();
    await expect(store.write(() => store.insert('apps', lost))).rejects.toMatchObject({ code: 'store_unavailable' });
    short.mockRestore();
    const after = app();
    await store.write(() => store.insert('apps', after));
    const crashed = await afterCrash(dir);
    expect(crashed.get('apps', kept.id)).toBeDefined();
    expect(crashed.get('apps', after.id)).toBeDefined();
    await crashed.close();
    await store.close();
  });

  it('keeps updates, removes and unique keys through a reopen', async () => {
    const dir = freshDir();
    const first = await FileStore.open({ dataDir: dir });
    const kept = app('Kept');
    const gone = app('Gone');
    await first.store.write(() => {
      first.store.insert('apps', kept);
      first.store.insert('apps', gone);
    });
    await first.store.write(() => {
      first.store.update('apps', kept.id, { name: 'Renamed' });
      first.store.remove('apps', gone.id);
    });
    await first.store.close();
    const { store } = await FileStore.open({ dataDir: dir });
    expect(store.get('apps', kept.id)?.name).toBe('Renamed');
    expect(store.get('apps', gone.id)).toBeUndefined();
    expect(store.findByKey('apps', 'ten_test:renamed')?.id).toBe(kept.id);
    expect(store.findByKey('apps', 'ten_test:kept')).toBeUndefined();
    expect(store.getOwned('apps', 'ten_other', kept.id)).toBeUndefined();
    await store.close();
  });

  it('close() flushes a write that has not settled yet', async () => {
    const dir = freshDir();
    const { store } = await FileStore.open({ dataDir: dir });
    const record = app();
    const pending = store.write(() => store.insert('apps', record));
    await store.close();
    await pending;
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const reopened = (await FileStore.open({ dataDir: dir })).store;
    expect(reopened.get('apps', record.id)).toEqual(record);
    await reopened.close();
  });

  it('a stop after a run that wrote nothing leaves db.json as it was; one after a write, or after an edit, writes it', async () => {
    const dir = freshDir();
    const path = join(dir, DATA_FILE);
    const first = await FileStore.open({ dataDir: dir });
    await first.store.write(() => first.store.insert('apps', app('Kept')));
    await first.store.close();
    const written = statSync(path);
    // Read only: the same file (the same inode, not rewritten through a rename) after the stop.
    const idle = (await FileStore.open({ dataDir: dir })).store;
    expect(idle.count('apps')).toBe(1);
    await idle.close();
    expect(statSync(path).ino).toBe(written.ino);
    // A write since the open: compacted on the stop, into a new file.
    const busy = (await FileStore.open({ dataDir: dir })).store;
    await busy.write(() => busy.insert('apps', app('Second')));
    await busy.close();
    const rewritten = statSync(path);
    expect(rewritten.ino).not.toBe(written.ino);
    expect(existsSync(join(dir, 'db.journal'))).toBe(false);
    // A hand edit (the checksum no longer matches): written back on the stop, with a checksum again.
    writeFileSync(path, readFileSync(path, 'latin1').replace('"Second"', '"Edited"'));
    const edited = (await FileStore.open({ dataDir: dir })).store;
    await edited.close();
    expect(statSync(path).ino).not.toBe(rewritten.ino);
    const again = (await FileStore.open({ dataDir: dir })).store;
    expect([...again.all('apps')].map((record) => record.name)).toEqual(['Kept', 'Edited']);
    await again.close();
    expect(readFileSync(path, 'latin1')).toMatch(/"checksum":"crc32:[0-9a-f]{8}"\n}\n$/);
  });

  it('restores from a file with one journal batch and a hard link to it, which a crash keeps and a compaction drops', async () => {
    // The file restored from: another store's db.json, in the layout a named snapshot has too.
    const other = freshDir();
    const { store: source } = await FileStore.open({ dataDir: other });
    const kept = app('kept');
    await source.write(() => source.insert('apps', kept));
    await source.close();
    const file = join(other, DATA_FILE);

    const dir = freshDir();
    const { store } = await FileStore.open({ dataDir: dir });
    const replaced = app('replaced');
    await store.write(() => store.insert('apps', replaced));
    await store.replaceAll({ apps: [kept] }, file);
    expect(store.get('apps', replaced.id)).toBeUndefined();
    expect(store.get('apps', kept.id)).toEqual(kept);
    // No record written again: a hard link to the file, which one journal batch names.
    const loads = readdirSync(dir).filter((name) => /^db\.load\.\d+\.json$/.test(name));
    expect(loads).toHaveLength(1);
    expect(statSync(join(dir, loads[0]!)).ino).toBe(statSync(file).ino);
    expect(readFileSync(join(dir, 'db.journal'), 'utf8')).toContain(`["load","${loads[0]}"]`);
    const later = app('later');
    await store.write(() => store.insert('apps', later));

    // A crash now leaves the file's records and the write after the restore, not what it replaced.
    const crashed = await afterCrash(dir);
    expect([...crashed.all('apps')].map((record) => record.id)).toEqual([kept.id, later.id]);
    await crashed.close();
    // The file may go (a snapshot deleted or saved again): the link holds the data until a compaction covers it.
    rmSync(file);
    await store.compact();
    expect(readdirSync(dir).filter((name) => name.includes('.load.'))).toEqual([]);
    await store.close();
    const reopened = (await FileStore.open({ dataDir: dir })).store;
    expect([...reopened.all('apps')].map((record) => record.id)).toEqual([kept.id, later.id]);
    await reopened.close();
  });

  it('a write after close is refused as store_unavailable', async () => {
    const { store } = await FileStore.open({ dataDir: freshDir() });
    await store.close();
    await expect(store.write(() => store.insert('apps', app()))).rejects.toMatchObject({ code: 'store_unavailable', status: 503 });
  });

  it('ignores a temp file a crash left behind, and replaces it on the next write', async () => {
    const dir = freshDir();
    const first = await FileStore.open({ dataDir: dir });
    const record = app();
    await first.store.write(() => first.store.insert('apps', record));
    await first.store.close();
    writeFileSync(join(dir, `.${DATA_FILE}.tmp`), '{"schemaVersion":1,"apps":[{"torn');
    const { store } = await FileStore.open({ dataDir: dir });
    expect(store.get('apps', record.id)).toBeDefined();
    await store.write(() => store.insert('apps', app()));
    await store.close();
    const reopened = (await FileStore.open({ dataDir: dir })).store;
    expect(reopened.count('apps')).toBe(2);
    await reopened.close();
  });

  it('opens a file of this version that lacks some collections (they start empty)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, DATA_FILE), JSON.stringify({ schemaVersion: 1, apps: [app('Old')] }));
    const { store, isNew } = await FileStore.open({ dataDir: dir });
    expect(isNew).toBe(false);
    expect(store.count('apps')).toBe(1);
    expect(store.count('users')).toBe(0);
    await store.close();
  });

  it('an in-memory store writes no file anywhere', async () => {
    const dir = freshDir();
    const before = readdirSync(dir);
    const { store, isNew } = await FileStore.open({ inMemory: true, dataDir: dir });
    expect(isNew).toBe(true);
    expect(store.dataDir).toBeNull();
    await store.write(() => store.insert('apps', app()));
    expect(store.count('apps')).toBe(1);
    expect(readdirSync(dir)).toEqual(before);
    await store.close();
  });
});

describe('a data file this version cannot read', () => {
  it.each([
    ['garbage', 'this is not json {{{', /cannot be read/],
    ['an empty file', '', /cannot be read/],
    ['a truncated document', '{"schemaVersion":1,"apps":[', /cannot be read/],
    ['a one-record-per-line snapshot cut off in its last record', '{"schemaVersion":1,"journalSeq":0,\n"apps":[\n{"id":"app_1"},\n{"id":"ap', /cannot be read/],
    ['a one-record-per-line snapshot cut off before its last line', '{"schemaVersion":1,"journalSeq":0,\n"apps":[\n{"id":"app_1"}\n]', /cannot be read/],
    ['a list', '[]', /does not hold a JSON object/],
    ['null', 'null', /cannot be read \(it holds null, not a JSON object\)/],
    ['no schemaVersion', '{"apps":[]}', /has no schemaVersion/],
    ['a schemaVersion as text', '{"schemaVersion":"1"}', /has no schemaVersion/],
    ['schemaVersion 99', '{"schemaVersion":99,"apps":[]}', /newer svc \(schema version 99/],
    ['apps that are not a list', '{"schemaVersion":1,"apps":{}}', /"apps" that is not a list/],
  ])('%s is refused with the path and the reason, left byte for byte, and the lock released', async (_label, content, reason) => {
    const dir = freshDir();
    const path = join(dir, DATA_FILE);
    writeFileSync(path, content);
    const before = readFileSync(path);
    const error = await FileStore.open({ dataDir: dir }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toMatch(/left untouched/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it.each([
    ['garbage', '\u0000\u0001 not json'],
    ['schemaVersion 99', '{"schemaVersion":99,"tenants":[],"apps":[],"users":[]}'],
    ['null', 'null'],
  ])('the emulator refuses to start on %s and never seeds over it', async (_label, content) => {
    const dir = freshDir();
    const path = join(dir, DATA_FILE);
    writeFileSync(path, content);
    const before = readFileSync(path);
    await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(StoreOpenError);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(
      readdirSync(dir)
        .filter((name) => name !== 'seal.key')
        .sort(),
    ).toEqual([DATA_FILE]);
  });
});

describe('a disk that fails writes', () => {
  it('answers 503 store_unavailable, /readyz turns 503, and both recover once the disk does', async () => {
    const svc = await startTestEmulator({ dataDir: freshDir() });
    try {
      expect((await svc.request('GET', '/readyz', { key: null })).body.data).toEqual({ status: 'ready', store: 'file' });
      // Root ignores file modes, so the failure is injected where durable writes happen: every
      // write and fdatasync of a file handle fails, as on a disk that has gone away.
      const eio = (call: string) => Object.assign(new Error(`EIO: i/o error, ${call}`), { code: 'EIO' });
      const prototype = await fileHandlePrototype();
      const failures = [vi.spyOn(prototype, 'datasync').mockRejectedValue(eio('fdatasync')), vi.spyOn(prototype, 'write').mockRejectedValue(eio('write'))];
      const refused = await svc.request('POST', '/apps', { body: { name: 'Unwritten' } });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'store_unavailable', details: [] });
      expect(refused.text).not.toMatch(/\n\s+at /);
      for (const path of ['/readyz', '/v1/readyz']) {
        const ready = await svc.request('GET', path, { key: null });
        expect(ready.status).toBe(503);
        expect(ready.body.code).toBe('store_unavailable');
      }
      expect((await svc.request('GET', '/healthz', { key: null })).status).toBe(200);

      for (const failure of failures) failure.mockRestore();
      expect((await svc.request('GET', '/readyz', { key: null })).status).toBe(200);
      const accepted = await svc.request('POST', '/apps', { body: { name: 'Written' } });
      expect(accepted.status).toBe(201);
      const crashed = await afterCrash(svc.dataDir);
      expect(crashed.get('apps', accepted.body.data.id)).toBeDefined();
      await crashed.close();
    } finally {
      vi.restoreAllMocks();
      await svc.close();
    }
  });
});
