/**
 * Records of a lazy collection (wallets, users) are held as their snapshot line's text until
 * first read, when the snapshot's checksum shows it is as svc wrote it: the store's API
 * answers exactly as if they had been parsed on open, the journal replays over them, and a
 * compaction writes a never-read record back byte for byte. A hand-edited file is parsed whole.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../test-support/harness.js';
import { crc32 } from 'node:zlib';
import type { UserRecord, WalletRecord } from './records.js';
import { checksumLine } from './snapshot.js';
import { DATA_FILE, FileStore } from './file-store.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TENANT = 'ten_lazy';
const OTHER_TENANT = 'ten_other';

function wallet(n: number, tenantId = TENANT): WalletRecord {
  return {
    id: `wal_lazy${n}`,
    tenantId,
    userId: `usr_lazy${n}`,
    publicKey: n.toString(16).padStart(64, '0'),
    shares: `iv${n}.tag${n}.data${n}`,
    claimedAt: null,
    createdAt: `2026-01-0${n}T00:00:00.000Z`,
  };
}

/** `text` (a snapshot up to its last collection's `],\n`) ended with its checksum, as svc ends one. */
function withChecksum(text: string): string {
  return `${text}${checksumLine(crc32(Buffer.from(text, 'utf8')))}\n}\n`;
}

/**
 * A data dir whose snapshot holds `wallets` and `users` in the line layout, with its checksum.
 * Each line is written with a space after every comma, as no svc writes it, so a line written
 * back unparsed shows.
 */
function dataDirWith(wallets: WalletRecord[], users: UserRecord[] = []): string {
  const dir = tempDataDir();
  dirs.push(dir);
  const lines = (records: Array<{ id: string }>) => (records.length === 0 ? '' : `\n${records.map(rawLine).join(',\n')}\n`);
  writeFileSync(join(dir, DATA_FILE), withChecksum(`{"schemaVersion":1,"journalSeq":0,\n"wallets":[${lines(wallets)}],\n"users":[${lines(users)}],\n`));
  return dir;
}

function rawLine(record: { id: string }): string {
  return JSON.stringify(record).replaceAll('","', '", "');
}
const snapshotText = (dir: string) => readFileSync(join(dir, DATA_FILE), 'latin1');

/** The store as the next server would open a copy of the dir now (snapshot and journal). */
async function reopenCopy(dir: string): Promise<FileStore> {
  const copy = tempDataDir();
  dirs.push(copy);
  cpSync(dir, copy, { recursive: true });
  return (await FileStore.open({ dataDir: copy })).store;
}

describe('lazily parsed records (wallets, users)', () => {
  const wallets = [wallet(1), wallet(2, OTHER_TENANT), wallet(3), wallet(4)];

  it('answer get, getOwned, all, newestFirst, ofTenant and count as parsed records', async () => {
    const { store } = await FileStore.open({ dataDir: dataDirWith(wallets) });
    try {
      expect(store.count('wallets')).toBe(4);
      expect(store.get('wallets', 'wal_lazy3')).toEqual(wallets[2]);
      expect(store.get('wallets', 'wal_lazy3')).toBe(store.get('wallets', 'wal_lazy3'));
      expect(store.get('wallets', 'wal_nope')).toBeUndefined();
      expect(store.getOwned('wallets', OTHER_TENANT, 'wal_lazy1')).toBeUndefined();
      expect(store.getOwned('wallets', TENANT, 'wal_lazy1')).toEqual(wallets[0]);
      expect([...store.all('wallets')]).toEqual(wallets);
      expect(store.newestFirst('wallets', TENANT).map((w) => w.id)).toEqual(['wal_lazy4', 'wal_lazy3', 'wal_lazy1']);
      expect(store.ofTenant('wallets', OTHER_TENANT)).toEqual([wallets[1]]);
      expect(store.count('wallets', TENANT)).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('write a never-read record back unchanged at compaction, and a read or changed one as JSON', async () => {
    const dir = dataDirWith(wallets);
    const { store } = await FileStore.open({ dataDir: dir });
    store.get('wallets', 'wal_lazy1');
    await store.write(() => store.update('wallets', 'wal_lazy3', { claimedAt: '2026-02-01T00:00:00.000Z' }));
    await store.compact();
    const text = snapshotText(dir);
    expect(text).toContain(rawLine(wallets[1]!));
    expect(text).toContain(rawLine(wallets[3]!));
    expect(text).toContain(JSON.stringify(wallets[0]));
    expect(text).toContain(JSON.stringify({ ...wallets[2], claimedAt: '2026-02-01T00:00:00.000Z' }));
    await store.close();
    const { store: again } = await FileStore.open({ dataDir: dir });
    // An update moves the record to the end of insertion order, lazily held or not.
    expect([...again.all('wallets')]).toEqual([wallets[0], wallets[1], wallets[3], { ...wallets[2], claimedAt: '2026-02-01T00:00:00.000Z' }]);
    await again.close();
  });

  it('update and remove a never-read record, and the journal replays over unparsed ones', async () => {
    const dir = dataDirWith(wallets);
    const { store } = await FileStore.open({ dataDir: dir });
    const claimedAt = '2026-02-02T00:00:00.000Z';
    const updated = await store.write(() => store.update('wallets', 'wal_lazy2', { claimedAt }));
    expect(updated).toEqual({ ...wallets[1], claimedAt });
    expect(await store.write(() => store.remove('wallets', 'wal_lazy4'))).toBe(true);
    await store.write(() => store.insert('wallets', wallet(5)));
    const expected = [wallets[0], wallets[2], { ...wallets[1], claimedAt }, wallet(5)];
    expect([...store.all('wallets')]).toEqual(expected);
    expect(store.newestFirst('wallets', TENANT).map((w) => w.id)).toEqual(['wal_lazy5', 'wal_lazy3', 'wal_lazy1']);

    // A crash now: the snapshot still holds the four, the journal the three changes.
    const replayed = await reopenCopy(dir);
    expect(replayed.count('wallets')).toBe(4);
    expect(replayed.get('wallets', 'wal_lazy4')).toBeUndefined();
    const byId = (a?: { id?: string }, b?: { id?: string }) => (a?.id ?? '').localeCompare(b?.id ?? '');
    expect([...replayed.all('wallets')].sort(byId)).toEqual([...expected].sort(byId));
    await replayed.close();
    await store.close();
  });

  it('are emptied by a reset, and a reset reaches the disk', async () => {
    const dir = dataDirWith(wallets);
    const { store } = await FileStore.open({ dataDir: dir });
    await store.write(() => {
      store.clear();
      store.insert('wallets', wallet(6));
    });
    expect([...store.all('wallets')]).toEqual([wallet(6)]);
    expect(store.count('wallets')).toBe(1);
    expect(store.get('wallets', 'wal_lazy1')).toBeUndefined();
    const replayed = await reopenCopy(dir);
    expect([...replayed.all('wallets')]).toEqual([wallet(6)]);
    await replayed.close();
    await store.close();
  });

  it('keep non-ASCII text intact, and write it back as ASCII', async () => {
    const named = { ...wallet(7), userId: 'usr_müller' };
    const dir = dataDirWith([named, wallet(8)]);
    const { store } = await FileStore.open({ dataDir: dir });
    await store.compact();
    await store.close();
    expect(readFileSync(join(dir, DATA_FILE)).every((byte) => byte < 0x80)).toBe(true);
    const { store: again } = await FileStore.open({ dataDir: dir });
    expect(again.get('wallets', named.id)).toEqual(named);
    await again.close();
  });

  it('open a snapshot whose wallet lines do not start with the id (the file is then parsed whole)', async () => {
    const dir = dataDirWith([]);
    const { tenantId, ...rest } = wallet(9);
    const odd = { tenantId, ...rest };
    writeFileSync(join(dir, DATA_FILE), `{"schemaVersion":1,"journalSeq":0,\n"wallets":[\n${JSON.stringify(odd)}\n]\n}\n`);
    const { store } = await FileStore.open({ dataDir: dir });
    expect([...store.all('wallets')]).toEqual([wallet(9)]);
    await store.close();
  });

  it('read two records on one line, or a nested object, as JSON.parse does (the file is then parsed whole)', async () => {
    const dir = dataDirWith([]);
    const { shares: _shares, ...rest } = wallet(2);
    const legacy = { ...rest, serverShare: { iv: 'aXY=', tag: 'dGFn', data: 'ZGF0YQ==' } }; // sealed as an object, as svc once did
    writeFileSync(
      join(dir, DATA_FILE),
      `{"schemaVersion":1,"journalSeq":0,\n"wallets":[\n${JSON.stringify(wallet(1))},${JSON.stringify(legacy)},\n${JSON.stringify(wallet(3))}\n]\n}\n`,
    );
    const { store } = await FileStore.open({ dataDir: dir });
    expect(store.count('wallets')).toBe(3);
    expect(store.get('wallets', 'wal_lazy1')).toEqual(wallet(1));
    expect(store.get('wallets', 'wal_lazy2')).toEqual(legacy);
    expect(store.get('wallets', 'wal_lazy3')).toEqual(wallet(3));
    await store.close();
  });

  it('are refused at open when a hand edit broke a line (the checksum no longer matches), and parsed at open after a valid edit', async () => {
    const user: UserRecord = {
      id: 'usr_lazy1',
      tenantId: TENANT,
      email: 'ann@example.test',
      name: 'Ann',
      trustLevel: 'basic',
      partyId: `ann::1220${'ab'.repeat(32)}`,
      walletId: 'wal_lazy1',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    for (const [from, to] of [
      ['"claimedAt":null', '"claimedAt":nul'],
      ['"email":"ann@example.test"', '"email":"ann@example.test'],
    ] as const) {
      const dir = dataDirWith([wallet(1), wallet(2)], [user]);
      const text = snapshotText(dir).replace(from, to);
      expect(text).not.toBe(snapshotText(dir));
      writeFileSync(join(dir, DATA_FILE), text);
      // Refused at start (D12), not at the first request that reads the line; the file is left as it was.
      await expect(FileStore.open({ dataDir: dir })).rejects.toThrow(/the data file .*db\.json cannot be read \(.*JSON/);
      expect(snapshotText(dir)).toBe(text);
    }
    const dir = dataDirWith([wallet(1), wallet(2)], [user]);
    writeFileSync(join(dir, DATA_FILE), snapshotText(dir).replace('"name":"Ann"', '"name":"Ann Lee"'));
    const { store } = await FileStore.open({ dataDir: dir });
    expect(store.get('users', 'usr_lazy1')).toEqual({ ...user, name: 'Ann Lee' });
    expect([...store.all('wallets')]).toEqual([wallet(1), wallet(2)]);
    await store.close();
  });
});
