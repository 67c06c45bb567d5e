/**
 * Named snapshots of the whole emulator (docs/control-plane.md#snapshots): every tenant's
 * records (webhooks, events, deliveries with their attempts and planned retries, the DLQ,
 * sessions, MFA and passkey state and the rest of the store) and the clock with its speed.
 * Restoring puts the store and the clock back as they were saved, in one durable write, and
 * plans again every attempt the restored deliveries wait for.
 *
 * A data dir keeps them as `snapshots/NAME.json` (the layout of db.json, snapshot.ts; the
 * directory 0700, each file 0600: they hold what db.json holds); an in-memory store keeps
 * them in memory. A PostgreSQL store refuses them: see SHARED_STORE_REFUSAL.
 *
 * A restore between tests must be quick (at 10k users, 50 ms: bench/lib/snapshots.ts). So a
 * snapshot file's records are kept in memory as saved or first read, for as long as the file is
 * that one (its inode, size and time), and a restore loads those, with no file read or parsed;
 * the data dir's store keeps the file itself as the restored state (a hard link) rather than
 * writing its records again (file-store.ts replaceAll).
 */
import { chmod, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { SNAPSHOT_NAME_PATTERN, type SnapshotInfo } from '../schemas/snapshots.js';
import { LAZY_COLLECTIONS } from '../store/collection.js';
import { SCHEMA_VERSION } from '../store/document.js';
import { syncDirectory } from '../store/journal-file.js';
import { COLLECTION_NAMES, type CollectionName } from '../store/records.js';
import { isRecordList, readSnapshot, writeSnapshot, type RawBlock } from '../store/snapshot.js';
import { usageMeter } from './usage.js';

/** The folder of the data dir that holds the snapshots. */
export const SNAPSHOT_DIR = 'snapshots';
/** What a snapshot file says it is, on its first line. */
const FORMAT = 'svc-snapshot';
/** Bytes read from the start of a file to list it: its first line, the header, is far shorter. */
const HEADER_BYTES = 4096;

/** Why a PostgreSQL store has no snapshots (answered as 409 conflict). */
export const SHARED_STORE_REFUSAL =
  'snapshots are kept in the data dir of one svc serve, and this store lives in PostgreSQL, shared by every process given its URL; ' +
  'save and restore the database itself (pg_dump / pg_restore, with every svc serve stopped), see docs/control-plane.md#snapshots';

type Records = Record<CollectionName, readonly unknown[] | RawBlock>;

/** What a data dir's snapshot file holds before its collections (its first line). */
interface Header {
  format: typeof FORMAT;
  schemaVersion: number;
  name: string;
  savedAt: string;
  clock: { now: string; speed: number };
  records: number;
  tenants: number;
}

/** An in-memory store's snapshots, per runtime. */
type Held = Map<string, { header: Header; records: Records }>;
const inMemory = new WeakMap<Runtime, Held>();

/**
 * A data dir's snapshots as saved or last read, by file path, with what names that file: its
 * inode, size and modification time. Records are never changed in place (store.ts), so the
 * lists saved stay the records of the file; a file replaced, edited or removed is read again.
 */
const ready = new Map<string, { stamp: string; header: Header; records: Records }>();
/** At most this many files' records are kept. */
const READY_FILES = 8;

/** What names the file at `path` as it is now; throws ENOENT when there is none. */
async function stampOf(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
}

function keepReady(path: string, stamp: string, header: Header, records: Records): void {
  ready.delete(path);
  if (ready.size >= READY_FILES) ready.delete(ready.keys().next().value!);
  ready.set(path, { stamp, header, records });
}

function checkName(name: string): void {
  if (!SNAPSHOT_NAME_PATTERN.test(name))
    throw new ApiError('validation_error', `"${name}" is not a snapshot name: letters, digits, - _ and . (not first), at most 100`, [
      { path: 'name', message: 'letters, digits, - _ and . (not first), at most 100' },
    ]);
}

/** Where the snapshots of `rt` live: a folder, memory, or nowhere (a shared store, refused). */
function placeOf(rt: Runtime): { dir: string } | { memory: Held } {
  if (rt.store.kind === 'postgres') throw new ApiError('conflict', SHARED_STORE_REFUSAL);
  if (rt.store.dataDir !== null) return { dir: join(rt.store.dataDir, SNAPSHOT_DIR) };
  let memory = inMemory.get(rt);
  if (!memory) inMemory.set(rt, (memory = new Map() as Held));
  return { memory };
}

function infoOf(header: Header): SnapshotInfo {
  return { name: header.name, savedAt: header.savedAt, clock: header.clock, records: header.records, tenants: header.tenants };
}

/** Saves the whole state under `name`, replacing a snapshot of that name. */
export async function saveSnapshot(rt: Runtime, name: string): Promise<SnapshotInfo> {
  checkName(name);
  const place = placeOf(rt);
  // Usage counted so far belongs to the state saved.
  await usageMeter(rt).flush();
  const records = rt.store.heldRecords();
  const header: Header = {
    format: FORMAT,
    schemaVersion: SCHEMA_VERSION,
    name,
    savedAt: new Date().toISOString(),
    clock: { now: rt.clock.iso(), speed: rt.clock.speed },
    records: COLLECTION_NAMES.reduce((sum, collection) => sum + records[collection].length, 0),
    tenants: records.tenants.length,
  };
  if ('memory' in place) place.memory.set(name, { header, records });
  else {
    await writeFile(place.dir, name, header, records);
    const path = join(place.dir, `${name}.json`);
    keepReady(path, await stampOf(path), header, records);
  }
  return infoOf(header);
}

/** Writes a snapshot file beside the others: a temp file (0600), fsync, rename, so a crash leaves the old one or the new. */
async function writeFile(dir: string, name: string, header: Header, records: Records): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const temp = join(dir, `.${name}.json.tmp`);
  await unlink(temp).catch(() => {});
  const file = await open(temp, 'wx', 0o600);
  try {
    const { format, schemaVersion, ...rest } = header;
    await writeSnapshot(file, { format, schemaVersion, ...rest }, records);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(temp, join(dir, `${name}.json`));
  await syncDirectory(dir);
}

/** The header of a snapshot file, from its first line; null for a file that is not one. */
async function readHeader(path: string): Promise<Header | null> {
  const file = await open(path, 'r');
  try {
    const bytes = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await file.read(bytes, 0, HEADER_BYTES, 0);
    const text = bytes.toString('utf8', 0, bytesRead);
    const end = text.indexOf('\n');
    if (end < 1) return null;
    const header = JSON.parse(`${text.slice(0, end).replace(/,$/, '')}}`) as Partial<Header>;
    return header.format === FORMAT ? (header as Header) : null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

/** Every snapshot, by name. */
export async function listSnapshots(rt: Runtime): Promise<SnapshotInfo[]> {
  const place = placeOf(rt);
  if ('memory' in place) return [...place.memory.values()].map(({ header }) => infoOf(header)).sort((a, b) => a.name.localeCompare(b.name));
  let names: string[];
  try {
    names = await readdir(place.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const found: SnapshotInfo[] = [];
  for (const file of names.sort()) {
    const name = file.replace(/\.json$/, '');
    if (name === file || !SNAPSHOT_NAME_PATTERN.test(name)) continue;
    const header = await readHeader(join(place.dir, file));
    if (header !== null) found.push(infoOf({ ...header, name }));
  }
  return found;
}

/** One snapshot's description; 404 when there is none of that name. */
export async function getSnapshot(rt: Runtime, name: string): Promise<SnapshotInfo> {
  checkName(name);
  const place = placeOf(rt);
  if ('memory' in place) {
    const held = place.memory.get(name);
    if (!held) throw notFound('snapshot', name);
    return infoOf(held.header);
  }
  const header = await readHeader(join(place.dir, `${name}.json`)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw notFound('snapshot', name);
    throw error;
  });
  if (header === null) throw new ApiError('conflict', `the file of snapshot ${name} is not a snapshot svc wrote; move it away`);
  return infoOf({ ...header, name });
}

/** A snapshot's header and records, read and checked, and its file in a data dir. */
async function load(rt: Runtime, name: string): Promise<{ header: Header; records: Records; path?: string }> {
  checkName(name);
  const place = placeOf(rt);
  if ('memory' in place) {
    const held = place.memory.get(name);
    if (!held) throw notFound('snapshot', name);
    return held;
  }
  const path = join(place.dir, `${name}.json`);
  let stamp: string;
  let value: unknown;
  try {
    stamp = await stampOf(path);
    const kept = ready.get(path);
    if (kept?.stamp === stamp) return { header: kept.header, records: kept.records, path };
    value = (await readSnapshot(path, LAZY_COLLECTIONS)).value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('snapshot', name);
    throw new ApiError('conflict', `snapshot ${name} cannot be read (${(error as Error).message}); it was left as it is`);
  }
  const document = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const header = document as unknown as Header;
  if (header.format !== FORMAT) throw new ApiError('conflict', `the file of snapshot ${name} is not a snapshot svc wrote; move it away`);
  if (typeof header.schemaVersion !== 'number' || header.schemaVersion > SCHEMA_VERSION)
    throw new ApiError('conflict', `snapshot ${name} was written by a newer svc (schema version ${String(header.schemaVersion)})`);
  const records = {} as Records;
  for (const collection of COLLECTION_NAMES) {
    const list = document[collection];
    // A lazy collection's lines stay one block: a restore loads them unsplit, as a start does.
    records[collection] = list === undefined || !isRecordList(list) ? [] : list;
  }
  // Kept only when the file did not change while it was read.
  if ((await stampOf(path).catch(() => null)) === stamp) keepReady(path, stamp, { ...header, name }, records);
  return { header: { ...header, name }, records, path };
}

/**
 * Puts the store and the clock back as snapshot `name` holds them, then plans again every
 * attempt its deliveries wait for (the retries planned before the save fire on the clock as
 * they would have). Attempts planned for records the restore removed are dropped.
 */
export async function restoreSnapshot(rt: Runtime, name: string): Promise<SnapshotInfo> {
  const { header, records, path } = await load(rt, name);
  // Usage counted before the restore belongs to the state it replaces.
  await usageMeter(rt).flush();
  await rt.store.replaceAll(records, path);
  rt.clock.setTimeAndSpeed(new Date(header.clock.now), header.clock.speed);
  for (const id of [...rt.scheduler.waiting.keys()]) rt.scheduler.cancel(id);
  for (const delivery of rt.store.all('deliveries')) {
    if (delivery.nextAttemptAt !== null) rt.scheduler.schedule(delivery.id, Date.parse(delivery.nextAttemptAt));
  }
  await rt.clock.kept();
  return infoOf(header);
}

/** Removes snapshot `name`; 404 when there is none. */
export async function deleteSnapshot(rt: Runtime, name: string): Promise<{ name: string; deleted: true }> {
  checkName(name);
  const place = placeOf(rt);
  if ('memory' in place) {
    if (!place.memory.delete(name)) throw notFound('snapshot', name);
  } else {
    try {
      await unlink(join(place.dir, `${name}.json`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('snapshot', name);
      throw error;
    }
  }
  return { name, deleted: true };
}
