/**
 * The journal behind lowdb's adapter (D12): appends are durable lines, a line torn by a crash
 * is cut off, a damaged line in the middle is refused, and compaction folds the journal into
 * db.json while appends go on, losing nothing at any point.
 */
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../test-support/harness.js';
import { JournalCorruptError, JournaledJsonFile, type JournalOp } from './journal-file.js';
import { FileStore } from './file-store.js';

type Doc = { schemaVersion: number; journalSeq?: number; apps?: Array<{ id: string; name: string }> };

const dirs: string[] = [];
function fresh(): { dir: string; file: JournaledJsonFile<Doc> } {
  const dir = tempDataDir();
  dirs.push(dir);
  return { dir, file: new JournaledJsonFile<Doc>(join(dir, 'db.json')) };
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const put = (id: string, name = id): JournalOp => ['put', 'apps', { id, name } as { id: string }];

describe('JournaledJsonFile', () => {
  it('answers null for an empty dir, then every appended batch in order', async () => {
    const { dir, file } = fresh();
    expect(await file.read()).toBeNull();
    await file.append([put('a'), put('b')]);
    await file.append([['del', 'apps', 'a'], put('b', 'renamed'), put('c')]);
    await file.close();
    const document = await new JournaledJsonFile<Doc>(join(dir, 'db.json')).read();
    expect(document?.apps).toEqual([
      { id: 'b', name: 'renamed' },
      { id: 'c', name: 'c' },
    ]);
  });

  it('cuts off a last line torn by a crash, and appends after the last good line', async () => {
    const { dir, file } = fresh();
    await file.append([put('a')]);
    await file.close();
    appendFileSync(join(dir, 'db.journal'), '{"s":2,"o":[["put","apps",{"id":"tor');
    const reopened = new JournaledJsonFile<Doc>(join(dir, 'db.json'));
    expect((await reopened.read())?.apps).toEqual([{ id: 'a', name: 'a' }]);
    await reopened.append([put('b')]);
    await reopened.close();
    const lines = readFileSync(join(dir, 'db.journal'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).s)).toEqual([1, 2]);
  });

  it('refuses a damaged line in the middle of the journal rather than guess', async () => {
    const { dir, file } = fresh();
    await file.append([put('a')]);
    await file.close();
    appendFileSync(join(dir, 'db.journal'), 'garbage\n{"s":3,"o":[]}\n');
    await expect(new JournaledJsonFile<Doc>(join(dir, 'db.json')).read()).rejects.toThrow(JournalCorruptError);
  });

  it('compacts into db.json with the sequence it covers and drops the rotated journal', async () => {
    const { dir, file } = fresh();
    await file.append([put('a')]);
    await file.append([put('b')]);
    await file.rotate();
    await file.append([put('c')]); // lands in the fresh journal while the snapshot is written
    await file.write({
      schemaVersion: 1,
      apps: [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'b' },
      ],
    });
    const snapshot = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as Doc;
    expect(snapshot.journalSeq).toBe(2);
    expect(readdirSync(dir).filter((name) => name.startsWith('db.journal'))).toEqual(['db.journal']);
    await file.close();
    expect((await new JournaledJsonFile<Doc>(join(dir, 'db.json')).read())?.apps?.map((a) => a.id)).toEqual(['a', 'b', 'c']);
  });

  it('writes the snapshot as ASCII and reads every character back, emoji and umlauts included', async () => {
    const { dir, file } = fresh();
    const apps = [
      { id: 'a', name: 'Müller 🚀 公司' },
      { id: 'b', name: 'plain' },
    ];
    await file.write({ schemaVersion: 1, apps });
    const bytes = readFileSync(join(dir, 'db.json'));
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
    expect((await new JournaledJsonFile<Doc>(join(dir, 'db.json')).read())?.apps).toEqual(apps);
    // A hand-edited snapshot with raw UTF-8 still reads right.
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ schemaVersion: 1, journalSeq: 0, apps }));
    expect((await new JournaledJsonFile<Doc>(join(dir, 'db.json')).read())?.apps).toEqual(apps);
  });

  it('recovers from a crash between rotation and the new snapshot (rotated journal still there)', async () => {
    const { dir, file } = fresh();
    await file.write({ schemaVersion: 1, apps: [] });
    await file.append([put('a')]);
    await file.rotate();
    await file.append([put('b')]);
    await file.close(); // crash: the snapshot covering 'a' was never written
    expect(readdirSync(dir).sort()).toEqual(['db.journal', 'db.journal.1', 'db.json']);
    writeFileSync(join(dir, '.db.json.tmp'), '{"half a snapsh');
    const document = await new JournaledJsonFile<Doc>(join(dir, 'db.json')).read();
    expect(document?.apps?.map((a) => a.id)).toEqual(['a', 'b']);
  });
});

describe('Store over the journal', () => {
  it('keeps every acknowledged write through compactions that run during a stream of writes', async () => {
    const { dir } = fresh();
    const { store } = await FileStore.open({ dataDir: dir });
    const ids: string[] = [];
    const now = new Date().toISOString();
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 400; i++) {
      const id = `app_j${i}`;
      ids.push(id);
      writes.push(
        store.write(() =>
          store.insert('apps', { id, tenantId: 'ten_j', name: `n${i}`, description: 'x'.repeat(200), allowedOrigins: [], createdAt: now, updatedAt: now }),
        ),
      );
      if (i % 100 === 50) writes.push(store.compact());
    }
    await Promise.all(writes);
    await store.close();
    expect(existsSync(join(dir, 'db.journal'))).toBe(false);
    const { store: reopened } = await FileStore.open({ dataDir: dir });
    expect(ids.filter((id) => !reopened.get('apps', id))).toEqual([]);
    expect(reopened.newestFirst('apps', 'ten_j')).toHaveLength(400);
    await reopened.close();
  });
});
