/**
 * The layout of the snapshot `db.json` (DESIGN D12): one JSON document, as lowdb's JSONFile
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
 * so that it can be read a chunk at a time, one record per JSON.parse, without ever holding
 * the whole file as bytes and again as a string. Any file not in exactly this layout (an
 * older single-line snapshot, a hand-edited or damaged one) is read whole with JSON.parse,
 * as before, which also gives the same error for a file that is not valid JSON.
 *
 * The last field, `checksum`, is the CRC-32 of every byte before its line. When it matches,
 * the file is byte for byte what svc wrote, and every record line is JSON that parses: the
 * records of the collections a reader names as lazy are then not parsed at all, each kept as
 * its line's text (a RawRecord) until the store first needs it, and written back as is. When
 * it does not match (a hand edit, damage) or is missing (a file from an older svc), every
 * line is parsed at read, so a damaged record is refused at start (D12), never at the first
 * request that needs it. The checksum is not part of the document read.
 */
import { isAscii } from 'node:buffer';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Bytes read from the snapshot at a time. */
const READ_CHUNK_BYTES = 1 << 20;

/** Records written between two yields to the event loop while writing a snapshot. */
const WRITE_CHUNK_RECORDS = 2_000;

const NEWLINE = 0x0a;
/** `"name":[`, `"name":[],` and the like: a collection opens (and maybe closes) on its own line. */
const COLLECTION_LINE = /^"([A-Za-z][A-Za-z0-9_]*)":\[(\])?(,?)$/;

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
    let record: T;
    try {
      record = JSON.parse(this.text) as T;
    } catch (error) {
      throw new Error(`the record ${this.id} in db.json is not valid JSON (${(error as Error).message}); fix that line or restore the file`);
    }
    if (record.id !== this.id) throw new Error(`the stored record ${this.id} holds id ${record.id}`);
    return record;
  }
}

/** The snapshot's last field, the CRC-32 (hex) of every byte before its line. */
const CHECKSUM_FIELD = 'checksum';
const CHECKSUM_LINE = /^"checksum":"crc32:([0-9a-f]{8})"$/;

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
 * Reads and parses the snapshot: a chunk at a time when it is in the layout above, else whole.
 * In the line layout the records of the `lazy` collections are RawRecords (a file read whole
 * has none). Throws what readFile throws (ENOENT when there is none) and JSON.parse's error
 * for a file that is not valid JSON.
 */
export async function readSnapshot(path: string, lazy: ReadonlySet<string> = new Set()): Promise<SnapshotRead> {
  const handle = await open(path, 'r');
  let streamed: SnapshotRead | null;
  try {
    streamed = await readLines(handle, lazy);
  } finally {
    await handle.close();
  }
  if (streamed) return streamed;
  const bytes = await readFile(path);
  // Snapshots are written as ASCII (see asciiJson), which decodes far faster as latin1.
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const value = JSON.parse(text) as unknown;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) delete (value as Record<string, unknown>)[CHECKSUM_FIELD];
  return { value, bytes: bytes.byteLength, intact: false };
}

/** The parser's state between lines. */
interface LineState {
  document: Record<string, unknown> | null;
  /** The collection whose records the next lines hold, or null between collections. */
  records: unknown[] | null;
  /** Whether the last record line ended with a comma (so another record must follow). */
  comma: boolean;
  done: boolean;
  /** The collections whose records are kept as RawRecords, and whether the current one is. */
  lazy: ReadonlySet<string>;
  raw: boolean;
  /** The lists that hold RawRecords, to parse after all if the file is not intact. */
  rawLists: unknown[][];
  /** The checksum the file states (its last field), once read. */
  stated: number | null;
}

/**
 * The document, when the file is in the line layout; null when it is not (the caller then
 * parses it whole, which also reports any damage the way JSON.parse does).
 */
async function readLines(handle: FileHandle, lazy: ReadonlySet<string>): Promise<SnapshotRead | null> {
  let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let filled = 0;
  let total = 0;
  const state: LineState = { document: null, records: null, comma: false, done: false, lazy, raw: false, rawLists: [], stated: null };
  /** The CRC-32 of the bytes before the current chunk, and whether they match the stated checksum. */
  let crc = 0;
  let intact = false;
  for (;;) {
    if (filled === buffer.length) {
      // No line break in the first chunk: an older single-line snapshot, read whole instead.
      if (state.document === null) return null;
      // A line longer than the buffer: make room for the rest of it.
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    total += bytesRead;
    filled += bytesRead;
    const end = bytesRead === 0 ? filled : buffer.lastIndexOf(NEWLINE, filled - 1) + 1;
    if (bytesRead === 0 && end === 0) break;
    if (end === 0) continue;
    // Decoded a chunk at a time, then cut into lines: one call into C++ per chunk, not per line
    // (the chunk ends at a newline, and a newline is never inside a UTF-8 sequence).
    // A RawRecord's text is a slice of its chunk, so a chunk stays in memory until all of its
    // unparsed records are read or gone: never more than the file held at start, and less than
    // decoding each kept line on its own (100k users: start 619 vs 686 ms, RSS 210 vs 241 MB).
    const ascii = isAscii(buffer.subarray(0, end));
    const text = buffer.toString(ascii ? 'latin1' : 'utf8', 0, end);
    let start = 0;
    while (start < text.length) {
      let stop = text.indexOf('\n', start);
      if (stop === -1) stop = text.length;
      const stated = state.stated;
      if (!takeLine(state, text.slice(start, stop))) return null;
      // The checksum's line: compare with the bytes before it (in an ASCII chunk a character is a byte).
      if (stated === null && state.stated !== null) intact = ascii && crc32(buffer.subarray(0, start), crc) === state.stated;
      start = stop + 1;
    }
    crc = crc32(buffer.subarray(0, end), crc);
    buffer.copy(buffer, 0, end, filled);
    filled -= end;
    if (bytesRead === 0) break;
  }
  if (!state.done || !state.document) return null;
  // Not as svc wrote it: every line is parsed now, and a damaged one sends the file to JSON.parse.
  if (!intact && !parseRawRecords(state.rawLists)) return null;
  return { value: state.document, bytes: total, intact };
}

/** Parses the RawRecords of `lists` in place; false when one is not JSON, or not the record its line's id names. */
function parseRawRecords(lists: unknown[][]): boolean {
  try {
    for (const list of lists) for (let i = 0; i < list.length; i++) list[i] = (list[i] as RawRecord).parse();
  } catch {
    return false;
  }
  return true;
}

/** Applies one line to the document; false when the line does not fit the layout. */
function takeLine(state: LineState, line: string): boolean {
  if (state.done) return false;
  if (state.document === null) {
    // The header: the document's first fields, `{"schemaVersion":1,"journalSeq":7,`.
    if (!line.startsWith('{') || !line.endsWith(',')) return false;
    const header = parseOrNull(`${line.slice(0, -1)}}`);
    if (typeof header !== 'object' || header === null || Array.isArray(header)) return false;
    state.document = header as Record<string, unknown>;
    state.comma = true;
    return true;
  }
  if (state.records !== null) {
    if (line === ']' || line === '],') {
      // A comma before `]` is not JSON; a comma after it means another collection follows.
      if (state.comma) return false;
      state.records = null;
      state.comma = line === '],';
      return true;
    }
    if (!state.comma && state.records.length > 0) return false;
    state.comma = line.endsWith(',');
    const text = state.comma ? line.slice(0, -1) : line;
    if (state.raw) {
      // Not parsed: a line that does not even look like a record sends the file to JSON.parse.
      // One flat record per line: its only braces are its own (a nested object or a second
      // record on the line, both valid JSON, go to JSON.parse, which reads them right).
      const id = RAW_ID.exec(text)?.[1];
      if (id === undefined || text.indexOf('}') !== text.length - 1 || text.indexOf('{', 1) !== -1) return false;
      state.records.push(new RawRecord(id, text));
      return true;
    }
    const record = parseOrNull(text);
    if (record === undefined) return false;
    state.records.push(record);
    return true;
  }
  if (line === '}') {
    if (state.comma) return false;
    state.done = true;
    return true;
  }
  if (line.startsWith(`"${CHECKSUM_FIELD}":`)) {
    // The last field, after a comma and only once; anything else about it is a hand edit.
    const stated = CHECKSUM_LINE.exec(line)?.[1];
    if (stated === undefined || !state.comma || state.stated !== null) return false;
    state.stated = Number.parseInt(stated, 16);
    state.comma = false;
    return true;
  }
  const match = COLLECTION_LINE.exec(line);
  if (!match || !state.comma) return false;
  const records: unknown[] = [];
  state.document[match[1]!] = records;
  state.records = match[2] === undefined ? records : null;
  state.raw = state.lazy.has(match[1]!);
  if (state.raw) state.rawLists.push(records);
  state.comma = match[2] === undefined ? false : match[3] === ',';
  return true;
}

/** JSON.parse, or undefined for text that is not one JSON value. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
