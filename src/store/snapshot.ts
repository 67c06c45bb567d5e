/**
 * The layout of the snapshot `db.json` (D12): one JSON document, as lowdb's JSONFile
 * reads it, written one record per line, ASCII only:
 *
 *     {"schemaVersion":1,"journalSeq":7,
 *     "apps":[
 *     {"id":"app_1",…},
 *     {"id":"app_2",…}
 *     ],
 *     "events":[],
 *     "checksum":"crc32:1c291ca3"
 *     }
 *
 * The last field, `checksum`, is the CRC-32 of every byte before its line. When it matches,
 * the file is byte for byte what svc wrote, so every record line is JSON that parses: the
 * collections a reader names as lazy are then not read at all, each kept as its bytes (a
 * RawBlock) until the store first needs it; the rest of the file is parsed with one
 * JSON.parse. A start thus reads 10,000 users in the time it takes to read the bytes and
 * check their CRC. When the checksum does not match (a hand edit, damage) or is missing (a
 * file from an older svc), the whole file is parsed at read, so a damaged record is refused
 * at start (D12), never at the first request that needs it, with JSON.parse's own error.
 * The checksum is not part of the document read.
 */
import { isAscii } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Records written between two yields to the event loop while writing a snapshot. */
const WRITE_CHUNK_RECORDS = 2_000;

// Any character above ASCII; \x00 is the range's lower end, not a control character sought.
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
// eslint-disable-next-line no-control-regex
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

/** A record of the snapshot held as its JSON text, not yet parsed; only its id is known. */
export class RawRecord {
  constructor(
    readonly id: string,
    readonly text: string,
  ) {}

  /** The record the line holds; throws, naming the record, when it is not JSON or holds another id (a hand edit). */
  parse<T extends { id: string }>(): T {
    const record = parseLine<T>(this.text, `the record ${this.id}`);
    if (record.id !== this.id) throw new Error(`the stored record ${this.id} holds id ${record.id}`);
    return record;
  }
}

/** A record line's JSON; throws, naming the line as `what`, when it is not JSON (only a hand edit gets there). */
function parseLine<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`${what} in db.json is not valid JSON (${(error as Error).message}); fix that line or restore the file`);
  }
}

/** The snapshot's last field, the CRC-32 (hex) of every byte before its line. */
const CHECKSUM_FIELD = 'checksum';
/** How the file ends: its checksum's line, then the document's closing brace. */
const CHECKSUM_TAIL = /\n"checksum":"crc32:([0-9a-f]{8})"\n\}\n$/;
/** The tail's length in bytes: a line break, the checksum's line (its hex is always 8 digits), `}` and a line break. */
const CHECKSUM_TAIL_BYTES = `\n${checksumLine(0)}\n}\n`.length;

/** The checksum's line for the bytes before it, whose CRC-32 is `crc`. */
export function checksumLine(crc: number): string {
  return `"${CHECKSUM_FIELD}":"crc32:${crc.toString(16).padStart(8, '0')}"`;
}

/** `{"id":"…",` at the start of a record line: the id, when it needs no unescaping. */
const RAW_ID = /^\{"id":"([^"\\]*)",/;

/** JSON text with every non-ASCII character escaped (`\u00fc`): the same value, ASCII bytes. */
function asciiText(json: string): string {
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

/** JSON with every non-ASCII character escaped: the same value, ASCII bytes. */
export function asciiJson(value: unknown): string {
  return asciiText(JSON.stringify(value));
}

/** A record's line: a RawRecord's own text, unchanged, or the record as ASCII JSON. */
function recordJson(record: unknown): string {
  return record instanceof RawRecord ? asciiText(record.text) : asciiJson(record);
}

/**
 * Writes `document` to `file` in the layout above, yielding to the event loop every few
 * thousand records so requests keep being served. `header` holds the fields that come first.
 */
export async function writeSnapshot(file: FileHandle, header: Record<string, unknown>, collections: Record<string, unknown>): Promise<void> {
  let crc = 0;
  const put = async (text: string): Promise<void> => {
    const bytes = Buffer.from(text);
    crc = crc32(bytes, crc);
    await writeBytes(file, bytes, 'the snapshot');
  };
  let buffer = `{${Object.entries(header)
    .map(([name, value]) => `${JSON.stringify(name)}:${asciiJson(value)}`)
    .join(',')}`;
  for (const [name, value] of Object.entries(collections)) {
    if (!Array.isArray(value)) {
      buffer += `,\n${JSON.stringify(name)}:${asciiJson(value)}`;
      continue;
    }
    buffer += `,\n${JSON.stringify(name)}:[`;
    for (let i = 0; i < value.length; i++) {
      buffer += (i === 0 ? '\n' : ',\n') + recordJson(value[i]);
      if (i % WRITE_CHUNK_RECORDS === WRITE_CHUNK_RECORDS - 1) {
        await put(buffer);
        buffer = '';
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    buffer += value.length === 0 ? ']' : '\n]';
  }
  await put(`${buffer},\n`);
  await writeWhole(file, `${checksumLine(crc)}\n}\n`, 'the snapshot');
}

/**
 * Writes all of `text` to `file` (named `what` in the error) and answers its byte length, or
 * throws: a short write (a full disk) must never become a cut journal line or a shorter snapshot.
 */
export async function writeWhole(file: FileHandle, text: string, what: string): Promise<number> {
  return writeBytes(file, Buffer.from(text), what);
}

async function writeBytes(file: FileHandle, bytes: Buffer, what: string): Promise<number> {
  const { bytesWritten } = await file.write(bytes);
  if (bytesWritten !== bytes.byteLength)
    throw Object.assign(new Error(`short write to ${what} (${bytesWritten} of ${bytes.byteLength} bytes)`), { code: 'ENOSPC' });
  return bytes.byteLength;
}

/** What `readSnapshot` found: the parsed value and the file's size. */
export interface SnapshotRead {
  value: unknown;
  bytes: number;
  /** Whether the file is byte for byte what svc wrote (its checksum matches), so writing it again would change nothing. */
  intact: boolean;
}

/**
 * The records of one lazy collection as the snapshot holds them: its lines, neither split nor
 * parsed. It holds a view of the bytes read, so the file stays in memory (as bytes, outside
 * the JS heap) until every block read from it has been split.
 */
export class RawBlock {
  constructor(readonly bytes: Buffer) {}

  /** The records, one RawRecord per line (a line whose id needs unescaping is parsed here). */
  records(): Array<RawRecord | { id: string }> {
    // ASCII (the checksum matched): a character is a byte, and latin1 decodes it fastest.
    const text = this.bytes.toString('latin1');
    const records: Array<RawRecord | { id: string }> = [];
    let start = 0;
    while (start < text.length) {
      let stop = text.indexOf('\n', start);
      if (stop === -1) stop = text.length;
      const line = text.charCodeAt(stop - 1) === 0x2c ? text.slice(start, stop - 1) : text.slice(start, stop);
      const id = RAW_ID.exec(line)?.[1];
      // A line whose id needs unescaping is parsed now; it throws only for a hand edit that also mended the checksum.
      records.push(id === undefined ? parseLine<{ id: string }>(line, `the record line ${line.slice(0, 80)}`) : new RawRecord(id, line));
      start = stop + 1;
    }
    return records;
  }
}

/** Whether a document's value is a collection's list as read: an array, or a lazy one's RawBlock. */
export function isRecordList(value: unknown): value is unknown[] | RawBlock {
  return Array.isArray(value) || value instanceof RawBlock;
}

/** A collection's list as read: its records, or a lazy one's RawBlock split into RawRecords. */
export function recordsOf(list: unknown[] | RawBlock): unknown[] {
  return list instanceof RawBlock ? list.records() : list;
}

/**
 * Reads and parses the snapshot. When its checksum matches, the `lazy` collections that have
 * records are RawBlocks; otherwise every record is parsed. Throws what open() throws (ENOENT
 * when there is none) and JSON.parse's error for a file that is not valid JSON.
 */
export async function readSnapshot(path: string, lazy: ReadonlySet<string> = new Set()): Promise<SnapshotRead> {
  const bytes = await readWhole(path);
  const ascii = isAscii(bytes);
  const stated = ascii ? statedChecksum(bytes) : null;
  // The CRC is computed only for a file that states one (an older file has none).
  if (stated !== null && stated === crc32(bytes.subarray(0, bytes.length - CHECKSUM_TAIL_BYTES + 1))) {
    return { value: parseIntact(bytes, lazy), bytes: bytes.byteLength, intact: true };
  }
  // Snapshots are written as ASCII (see asciiJson), which decodes far faster as latin1.
  const value = JSON.parse(ascii ? bytes.toString('latin1') : bytes.toString('utf8')) as unknown;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) delete (value as Record<string, unknown>)[CHECKSUM_FIELD];
  return { value, bytes: bytes.byteLength, intact: false };
}

/** The file's bytes, read with one buffer of its size (readFile would grow one as it reads). */
async function readWhole(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, null);
      if (bytesRead === 0) break; // cut while read: JSON.parse of what is there reports it
      filled += bytesRead;
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** The CRC-32 the file states on its last line, or null when it does not end that way. */
function statedChecksum(bytes: Buffer): number | null {
  if (bytes.length < CHECKSUM_TAIL_BYTES) return null;
  const stated = CHECKSUM_TAIL.exec(bytes.toString('latin1', bytes.length - CHECKSUM_TAIL_BYTES))?.[1];
  return stated === undefined ? null : Number.parseInt(stated, 16);
}

/**
 * The document of a file svc wrote: each lazy collection's lines are cut out and kept as a
 * RawBlock, and what is left (`"users":[` followed by `],`, an empty list) is parsed at once.
 * A collection's lines lie between its own line, `"users":[`, and the next line that starts
 * with `]`: a record line starts with `{`, and a record never holds a raw line break.
 */
function parseIntact(bytes: Buffer, lazy: ReadonlySet<string>): Record<string, unknown> {
  const cuts: Array<{ name: string; start: number; end: number }> = [];
  for (const name of lazy) {
    const opening = bytes.indexOf(`\n"${name}":[\n`);
    if (opening === -1) continue; // none, or no records (`"users":[],`)
    const start = opening + name.length + 6;
    const end = bytes.indexOf('\n]', start);
    if (end !== -1) cuts.push({ name, start, end });
  }
  cuts.sort((a, b) => a.start - b.start);
  let text = '';
  let from = 0;
  for (const { start, end } of cuts) {
    text += bytes.toString('latin1', from, start);
    from = end;
  }
  text += bytes.toString('latin1', from);
  const document = JSON.parse(text) as Record<string, unknown>;
  delete document[CHECKSUM_FIELD];
  for (const { name, start, end } of cuts) document[name] = new RawBlock(bytes.subarray(start, end));
  return document;
}
