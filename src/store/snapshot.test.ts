/**
 * The snapshot layout (D12): one record per line, a lazy collection's lines kept unread when
 * the checksum matches, and for anything else (older single-line files, hand edits, damage)
 * exactly what JSON.parse of the whole file gives, errors included.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { JSONFile } from 'lowdb/node';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../test-support/harness.js';
import { RawBlock, RawRecord, asciiJson, checksumLine, readSnapshot, writeSnapshot } from './snapshot.js';

const dir = tempDataDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function written(header: Record<string, unknown>, collections: Record<string, unknown>): Promise<string> {
  const path = join(dir, `snapshot-${files++}.json`);
  const file = await open(path, 'w');
  await writeSnapshot(file, header, collections);
  await file.close();
  return path;
}

function withText(text: string | Buffer): string {
  const path = join(dir, `snapshot-${files++}.json`);
  writeFileSync(path, text);
  return path;
}

/** What reading the whole file with JSON.parse gives: the value, or the error's message. */
function wholeParse(path: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function streamed(path: string, lazy?: ReadonlySet<string>): Promise<{ value: unknown } | { error: string }> {
  try {
    return { value: (await readSnapshot(path, lazy)).value };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const app = (i: number) => ({ id: `app_${i}`, tenantId: 'ten_a', name: `App ${i}`, tags: ['a', { b: [1, 2] }], note: null });
const document = {
  apps: [app(1), app(2), app(3)],
  events: [],
  users: [{ id: 'usr_1', name: 'Müller 🚀 公司', email: 'line\nbreak@x.test' }],
};

describe('the snapshot layout', () => {
  it('writes one record per line, ASCII only, as one JSON document lowdb reads', async () => {
    const path = await written({ schemaVersion: 1, journalSeq: 7 }, document);
    const bytes = readFileSync(path);
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
    expect(bytes.toString('latin1').split('\n').slice(0, 7)).toEqual([
      '{"schemaVersion":1,"journalSeq":7,',
      '"apps":[',
      JSON.stringify(app(1)) + ',',
      JSON.stringify(app(2)) + ',',
      JSON.stringify(app(3)),
      '],',
      '"events":[],',
    ]);
    // The last field is the CRC-32 of every byte before its line; readSnapshot leaves it out.
    const lines = bytes.toString('latin1').split('\n');
    expect(lines.slice(-3)).toEqual([checksumLine(crc32(bytes.subarray(0, bytes.lastIndexOf('"checksum"')))), '}', '']);
    const expected = { schemaVersion: 1, journalSeq: 7, ...document };
    const checksum = JSON.parse(lines.at(-3)!.replace(/^/, '{').concat('}')) as { checksum: string };
    expect(checksum.checksum).toMatch(/^crc32:[0-9a-f]{8}$/);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ ...expected, ...checksum });
    expect(await new JSONFile(path).read()).toEqual({ ...expected, ...checksum });
    expect(await readSnapshot(path)).toEqual({ value: expected, bytes: bytes.byteLength, intact: true });
  });

  it('keeps the records of lazy collections as text when the checksum matches, and parses them all when it does not', async () => {
    const path = await written({ schemaVersion: 1, journalSeq: 7 }, document);
    const lazy = new Set(['users']);
    const intact = (await readSnapshot(path, lazy)).value as Record<string, unknown>;
    expect(intact['users']).toBeInstanceOf(RawBlock);
    expect((intact['users'] as RawBlock).records()).toEqual([new RawRecord('usr_1', asciiJson(document.users[0]))]);
    expect(intact['apps']).toEqual(document.apps);
    // One byte changed, still valid JSON (a hand edit): the same document, every record parsed.
    const edited = withText(readFileSync(path, 'latin1').replace('App 2', 'App 9'));
    const apps = [app(1), { ...app(2), name: 'App 9' }, app(3)];
    expect(((await readSnapshot(edited, lazy)).value as Record<string, unknown[]>)['users']).toEqual(document.users);
    expect((await readSnapshot(edited, lazy)).value).toEqual({ schemaVersion: 1, journalSeq: 7, ...document, apps });
    // Without a checksum (a file from an older svc), and with a wrong one: parsed all the same.
    const older = withText(
      readFileSync(path, 'latin1')
        .replace(/"checksum":.*\n/, '')
        .replace('],\n}', ']\n}'),
    );
    const wrong = withText(readFileSync(path, 'latin1').replace(/crc32:[0-9a-f]{8}/, 'crc32:00000000'));
    for (const file of [older, wrong]) expect((await readSnapshot(file, lazy)).value).toEqual({ schemaVersion: 1, journalSeq: 7, ...document });
    // A record line broken by an edit is refused at read, with JSON.parse's own error, not kept as text.
    const broken = withText(readFileSync(path, 'latin1').replace('"email":', '"email"'));
    expect(await streamed(broken, lazy)).toEqual(wholeParse(broken));
    expect(wholeParse(broken)).toHaveProperty('error');
  });

  it('cuts out each lazy collection wherever it is, and parses the rest as it was written', async () => {
    const users = Array.from({ length: 4 }, (_, i) => ({ id: `usr_${i}`, tenantId: 'ten_a', name: i === 2 ? 'x\n],\n"apps":[' : `U${i}` }));
    const wallets = [
      { id: 'wal_"quoted"', tenantId: 'ten_a' },
      { id: 'wal_2', tenantId: 'ten_a', nested: { a: [1, { b: 2 }] } },
    ];
    const collections = { users, apps: document.apps, empty: [], wallets, events: [{ id: 'evt_1' }], keys: [] };
    const path = await written({ schemaVersion: 1, journalSeq: 4 }, collections);
    const read = await readSnapshot(path, new Set(['users', 'wallets', 'empty', 'absent']));
    expect(read.intact).toBe(true);
    const value = read.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['schemaVersion', 'journalSeq', 'users', 'apps', 'empty', 'wallets', 'events', 'keys']);
    expect({ ...value, users: [], wallets: [] }).toEqual({ schemaVersion: 1, journalSeq: 4, ...collections, users: [], wallets: [] });
    // Each line a RawRecord that parses to the record; an id that needs unescaping is parsed at the split.
    const parsed = (list: unknown) => (list as RawBlock).records().map((record) => (record instanceof RawRecord ? record.parse() : record));
    expect(parsed(value['users'])).toEqual(users);
    expect(parsed(value['wallets'])).toEqual(wallets);
    expect((value['wallets'] as RawBlock).records()[0]).not.toBeInstanceOf(RawRecord);
  });

  it('reads a document with no collections, and one whose collections are all empty', async () => {
    for (const collections of [{}, { apps: [], events: [] }]) {
      const path = await written({ schemaVersion: 1, journalSeq: 0 }, collections);
      expect((await readSnapshot(path)).value).toEqual({ schemaVersion: 1, journalSeq: 0, ...collections });
    }
  });

  it('reads thousands of records, and one of several megabytes', async () => {
    const apps = Array.from({ length: 5_000 }, (_, i) => ({ ...app(i), description: 'x'.repeat(i % 700) }));
    const huge = { id: 'evt_big', payload: 'y'.repeat(3 * 1024 * 1024) };
    const path = await written({ schemaVersion: 1, journalSeq: 3 }, { apps, events: [huge], users: [] });
    expect((await readSnapshot(path)).value).toEqual({ schemaVersion: 1, journalSeq: 3, apps, events: [huge], users: [] });
  });

  it.each([
    ['an older single-line snapshot', JSON.stringify({ schemaVersion: 1, journalSeq: 2, ...document })],
    ["lowdb's own indented layout", JSON.stringify({ schemaVersion: 1, ...document }, null, 2)],
    ['raw UTF-8 from a hand edit', `{"schemaVersion":1,\n"apps":[\n{"id":"a","name":"Müller 🚀"}\n]\n}\n`],
    ['CRLF line ends', `{"schemaVersion":1,\r\n"apps":[\r\n{"id":"a"}\r\n]\r\n}\r\n`],
    ['a collection that is not a list', `{"schemaVersion":1,\n"apps":{"id":"a"},\n"events":[]\n}\n`],
    ['a record over two lines', `{"schemaVersion":1,\n"apps":[\n{"id":"a",\n"name":"b"}\n]\n}\n`],
    ['blank lines and trailing spaces', `{"schemaVersion":1,\n\n"apps":[\n{"id":"a"} \n]\n}\n\n`],
  ])('reads %s as JSON.parse does', async (_label, text) => {
    const path = withText(text);
    expect(await streamed(path)).toEqual(wholeParse(path));
    expect('value' in wholeParse(path)).toBe(true);
  });

  it.each([
    ['garbage', 'this is not json {{{'],
    ['an empty file', ''],
    ['a trailing comma before ]', `{"schemaVersion":1,\n"apps":[\n{"id":"a"},\n]\n}\n`],
    ['a missing comma between records', `{"schemaVersion":1,\n"apps":[\n{"id":"a"}\n{"id":"b"}\n]\n}\n`],
    ['a missing comma between collections', `{"schemaVersion":1,\n"apps":[]\n"events":[]\n}\n`],
    ['text after the document', `{"schemaVersion":1,\n"apps":[]\n}\nmore\n`],
    ['a second document', `{"schemaVersion":1,\n"apps":[]\n}\n{"schemaVersion":1,\n"apps":[]\n}\n`],
  ])("refuses %s with JSON.parse's own error", async (_label, text) => {
    const path = withText(text);
    const whole = wholeParse(path);
    expect(whole).toHaveProperty('error');
    expect(await streamed(path)).toEqual(whole);
  });

  it('refuses a snapshot cut off at any byte, as JSON.parse of the whole file does', async () => {
    const path = await written({ schemaVersion: 1, journalSeq: 7 }, document);
    const bytes = readFileSync(path);
    const whole = bytes.subarray(0, bytes.length - 1); // without the final newline it is still whole
    const { checksum: _checksum, ...value } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    expect((await readSnapshot(withText(whole))).value).toEqual(value);
    for (let cut = 0; cut < whole.length; cut++) {
      const truncated = withText(bytes.subarray(0, cut));
      const result = await streamed(truncated);
      expect(result, `cut at byte ${cut}`).toEqual(wholeParse(truncated));
      expect(result, `cut at byte ${cut}`).toHaveProperty('error');
    }
  });
});
