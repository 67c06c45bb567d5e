/**
 * lowdb's adapter for the store's files (D12): the JSON snapshot `db.json` that users
 * see, plus an append-only journal `db.journal` of JSON lines. A commit appends one line (a
 * batch of operations) and fdatasyncs it, so a durable write costs the same at 100 or
 * 100,000 records. `write()` compacts: it rotates the journal, streams a snapshot through a
 * temp file, fsync and rename, then drops the rotated journal. `read()` answers the snapshot
 * with every later journal batch applied, so a crash at any moment loses nothing that was
 * acknowledged, and a line torn by a crash mid-append is ignored (it was never acknowledged).
 *
 * A batch may also load a whole file of the snapshot layout (`appendLoad`: a named snapshot
 * restored, services/snapshots.ts) instead of writing its records again: the file is hard-linked
 * into the data dir as `db.load.<seq>.json` and the batch names it. `read()` starts over from the
 * last such file, and a compaction that covers it removes it.
 */
import { constants } from 'node:fs';
import { link, open, readdir, readFile, rename, stat, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { DATA_FILE_MODE } from './data-dir.js';
import { isRecordList, readSnapshot, recordsOf, writeSnapshot, writeWhole } from './snapshot.js';

/**
 * Whether journal writes are synchronous (O_DSYNC). Only on Linux, where it is as strong as
 * fdatasync; on macOS fdatasync means F_FULLFSYNC (through the drive's cache) and O_DSYNC
 * does not, and Windows has no O_DSYNC.
 */
export const SYNCED_WRITES = process.platform === 'linux' && typeof constants.O_DSYNC === 'number';

/**
 * One operation of a batch: put a whole record, delete one by id, empty every collection, or
 * replace every collection by those of a file in the data dir (`appendLoad`), alone in its batch.
 */
export type JournalOp = ['put', string, { id: string }] | ['del', string, string] | ['clear'] | ['load', string];

export interface JournalBatch {
  /** Sequence number, increasing across the store's life. */
  s: number;
  o: JournalOp[];
}

/** The snapshot's own fields besides the collections. */
export interface SnapshotHeader {
  schemaVersion: number;
  /** The last journal batch the snapshot includes. */
  journalSeq?: number;
}

type Document = SnapshotHeader & Record<string, unknown>;

export class JournalCorruptError extends Error {
  override name = 'JournalCorruptError';
}

export class JournaledJsonFile<T extends SnapshotHeader> implements Adapter<T> {
  readonly path: string;
  readonly journalPath: string;
  readonly #tempPath: string;
  readonly #dir: string;
  #journal: FileHandle | null = null;
  #seq = 0;
  #journalBytes = 0;
  #covered: number | null = null;
  /** Size of the last snapshot written or read, to pace compactions. */
  snapshotBytes = 0;
  /**
   * Whether db.json alone holds everything, as svc writes it: read intact with no journal
   * batch after it, or just written, with nothing appended since. A compaction would then
   * write the same file again, so a clean stop skips it.
   */
  current = false;

  /** Collections whose snapshot lines `read()` leaves unread, each a RawBlock (snapshot.ts). */
  readonly #lazy: ReadonlySet<string>;

  constructor(path: string, options: { lazy?: ReadonlySet<string> } = {}) {
    this.path = path;
    this.#lazy = options.lazy ?? new Set();
    this.#dir = dirname(path);
    this.journalPath = `${path.replace(/\.json$/, '')}.journal`;
    this.#tempPath = join(this.#dir, `.${basename(path)}.tmp`);
  }

  /** Bytes appended to the live journal since the last compaction. */
  get journalBytes(): number {
    return this.#journalBytes;
  }

  /**
   * The snapshot with every journal batch after it applied; null when there is neither.
   * A journal line torn by a crash is cut off the file (pass `repair: false` to only look).
   */
  async read(repair = true): Promise<T | null> {
    let document: Document | null = null;
    try {
      const { value, bytes, intact } = await readSnapshot(this.path, this.#lazy);
      this.snapshotBytes = bytes;
      this.current = intact;
      // null is how lowdb says "no file yet"; a file holding null must be refused, not seeded over.
      if (value === null) throw new Error('it holds null, not a JSON object');
      if (typeof value !== 'object' || Array.isArray(value)) return value as T;
      document = value as Document;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const batches = await this.#readJournals(repair);
    if (batches.length > 0) this.current = false;
    const after = document?.journalSeq ?? 0;
    let pending = batches.filter((batch) => batch.s > after);
    this.#seq = Math.max(after, ...batches.map((batch) => batch.s));
    // A loaded file replaces everything before it: start from the last one.
    const loaded = pending.findLastIndex((batch) => batch.o[0]?.[0] === 'load');
    if (loaded !== -1) {
      document = await this.#readLoaded((pending[loaded]!.o[0] as ['load', string])[1], document?.schemaVersion);
      pending = pending.slice(loaded + 1);
    }
    if (pending.length === 0) return document as T | null;
    document ??= { schemaVersion: 0 };
    applyBatches(document, pending);
    return document as T;
  }

  /** The collections of a loaded file (its other fields, a named snapshot's header, left out). */
  async #readLoaded(name: string, schemaVersion = 0): Promise<Document> {
    const { value } = await readSnapshot(join(this.#dir, name), this.#lazy);
    const document: Document = { schemaVersion: (value as Document).schemaVersion ?? schemaVersion };
    for (const [field, list] of Object.entries(value as Document)) if (isRecordList(list)) document[field] = list;
    return document;
  }

  /** The name a load batch of sequence `seq` gives its file in the data dir. */
  #loadName(seq: number): string {
    return `${basename(this.path).replace(/\.json$/, '')}.load.${seq}.json`;
  }

  /**
   * Makes `source`, a file in the snapshot layout on the data dir's filesystem, the whole
   * store from now on, in one batch and without writing its records: a hard link to it in the
   * data dir (so a later save or delete of `source` leaves it be), made durable, then one batch
   * naming it. Call when no append is under way. Files of earlier loads are removed once the
   * batch is durable, in the background: read() never goes back past it. Throws what link() throws (EXDEV, EPERM
   * on a filesystem without hard links); nothing was appended then.
   */
  async appendLoad(source: string): Promise<void> {
    const seq = this.#seq + 1;
    const target = join(this.#dir, this.#loadName(seq));
    await unlink(target).catch(() => {});
    await link(source, target);
    await syncDirectory(this.#dir);
    await this.append([['load', this.#loadName(seq)]]);
    // Off the caller's path: removing the last link to a file of megabytes takes a while.
    void this.#loadFiles()
      .then(async (files) => {
        for (const earlier of files) if (earlier.seq < seq) await unlink(earlier.path).catch(() => {});
      })
      .catch(() => {});
  }

  /** The files of load batches in the data dir, with their sequence numbers. */
  async #loadFiles(): Promise<Array<{ path: string; seq: number }>> {
    const prefix = `${basename(this.path).replace(/\.json$/, '')}.load.`;
    const found: Array<{ path: string; seq: number }> = [];
    for (const name of await readdir(this.#dir)) {
      const seq = name.startsWith(prefix) && name.endsWith('.json') ? name.slice(prefix.length, -'.json'.length) : '';
      if (/^\d+$/.test(seq)) found.push({ path: join(this.#dir, name), seq: Number(seq) });
    }
    return found;
  }

  /** Appends one batch and makes it durable. */
  async append(ops: JournalOp[]): Promise<void> {
    if (ops.length === 0) return;
    const line = `${JSON.stringify({ s: this.#seq + 1, o: ops } satisfies JournalBatch)}\n`;
    let written = 0;
    await this.#withJournal(async (journal) => {
      // A short write (a full disk) fails the batch; the next open cuts the partial line off.
      written = await writeWhole(journal, line, 'the journal');
      // With O_DSYNC the write itself returns only once the data is on disk: one round
      // trip to the thread pool per batch instead of two, which is what a waiting writer sees.
      if (!SYNCED_WRITES) await journal.datasync();
    });
    this.#seq += 1;
    this.#journalBytes += written;
    this.current = false;
  }

  /**
   * Starts a compaction: closes and renames the live journal, so appends from now on go to a
   * fresh one. Call when no append is under way; the next `write()` snapshot must hold every
   * batch appended before this call.
   */
  async rotate(): Promise<void> {
    this.#covered = this.#seq;
    if (!this.#journal) return;
    await this.#journal.close();
    this.#journal = null;
    await rename(this.journalPath, `${this.journalPath}.${this.#covered}`);
    this.#journalBytes = 0;
  }

  /**
   * Compacts: writes `data` as the snapshot (it must hold every batch appended before the
   * last `rotate()`), then drops the rotated journals it covers. Appends may go on meanwhile.
   */
  async write(data: T): Promise<void> {
    if (this.#covered === null) await this.rotate();
    const covered = this.#covered ?? this.#seq;
    this.#covered = null;
    await this.#writeSnapshot({ ...(data as unknown as Document), journalSeq: covered });
    // Current unless a batch was appended while the snapshot was written.
    this.current = this.#seq === covered;
    await syncDirectory(this.#dir);
    this.snapshotBytes = (await stat(this.path)).size;
    for (const name of await readdir(this.#dir)) {
      const full = join(this.#dir, name);
      const suffix = full.startsWith(`${this.journalPath}.`) ? full.slice(this.journalPath.length + 1) : '';
      if (/^\d+$/.test(suffix) && Number(suffix) <= covered) await unlink(full);
    }
    for (const loaded of await this.#loadFiles()) if (loaded.seq <= covered) await unlink(loaded.path).catch(() => {});
  }

  /** Checks that the live journal can be opened and synced (readiness after a failure). */
  async probe(): Promise<void> {
    await this.#withJournal((journal) => journal.datasync());
  }

  /**
   * Runs `use` on the live journal, opening it if needed. On failure part of a line may have
   * reached the file: the handle is dropped, and the next open cuts the file back to its
   * last good size, so no torn line ever sits in the middle of the journal.
   */
  async #withJournal(use: (journal: FileHandle) => Promise<void>): Promise<void> {
    try {
      this.#journal ??= await this.#openJournal();
      await use(this.#journal);
    } catch (error) {
      const handle = this.#journal;
      this.#journal = null;
      await handle?.close().catch(() => {});
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#journal?.close();
    this.#journal = null;
  }

  async #openJournal(): Promise<FileHandle> {
    const handle = await open(
      this.journalPath,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (SYNCED_WRITES ? constants.O_DSYNC : 0),
      DATA_FILE_MODE,
    );
    try {
      if ((await handle.stat()).size !== this.#journalBytes) await handle.truncate(this.#journalBytes);
      await syncDirectory(this.#dir);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  }

  /** Streams the snapshot to the temp file in chunks, then makes it db.json. */
  async #writeSnapshot(document: Document): Promise<void> {
    // Made 0600 before anything is written: the rename keeps the mode, and db.json holds bot tokens.
    const file = await open(this.#tempPath, 'w', DATA_FILE_MODE);
    await file.chmod(DATA_FILE_MODE);
    try {
      const { schemaVersion, journalSeq, ...collections } = document;
      await writeSnapshot(file, { schemaVersion, journalSeq: journalSeq ?? 0 }, collections);
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(this.#tempPath, this.path);
  }

  /** Every batch of the rotated and the live journal, in order; a torn last line is cut off. */
  async #readJournals(repair: boolean): Promise<JournalBatch[]> {
    const names = (await readdir(this.#dir)).map((name) => join(this.#dir, name));
    const rotated = names
      .filter((name) => name.startsWith(`${this.journalPath}.`) && /^\d+$/.test(name.slice(this.journalPath.length + 1)))
      .sort((a, b) => Number(a.slice(this.journalPath.length + 1)) - Number(b.slice(this.journalPath.length + 1)));
    const batches: JournalBatch[] = [];
    for (const file of rotated) batches.push(...(await readJournal(file, repair)).batches);
    if (names.includes(this.journalPath)) {
      const live = await readJournal(this.journalPath, repair);
      batches.push(...live.batches);
      // Appends continue this file from its last good byte.
      if (repair) this.#journalBytes = live.validBytes;
    }
    return batches;
  }
}

async function readJournal(path: string, repair: boolean): Promise<{ batches: JournalBatch[]; validBytes: number }> {
  const text = await readFile(path, 'utf8');
  const batches: JournalBatch[] = [];
  let offset = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    const line = end === -1 ? text.slice(offset) : text.slice(offset, end);
    let batch: JournalBatch | undefined;
    try {
      batch = JSON.parse(line) as JournalBatch;
    } catch {
      batch = undefined;
    }
    if (end === -1 || batch === undefined) {
      // Only the last line may be torn (a crash during its append: never acknowledged).
      if (end !== -1 && text.slice(end + 1).trim() !== '') {
        throw new JournalCorruptError(`the journal ${path} has a damaged line at byte ${offset}`);
      }
      if (repair) await truncate(path, Buffer.byteLength(text.slice(0, offset)));
      break;
    }
    batches.push(batch);
    offset = end + 1;
  }
  return { batches, validBytes: Buffer.byteLength(text.slice(0, offset)) };
}

/** Applies batches to a snapshot document in place (collections are arrays of records). */
function applyBatches(document: Document, batches: JournalBatch[]): void {
  const maps = new Map<string, Map<string, { id: string }>>();
  const mapOf = (name: string): Map<string, { id: string }> => {
    let map = maps.get(name);
    if (!map) {
      const held = document[name];
      const list = isRecordList(held) ? (recordsOf(held) as Array<{ id: string }>) : [];
      map = new Map(list.map((record) => [record.id, record]));
      maps.set(name, map);
    }
    return map;
  };
  for (const batch of batches) {
    for (const op of batch.o) {
      if (op[0] === 'put') mapOf(op[1]).set(op[2].id, op[2]);
      else if (op[0] === 'del') mapOf(op[1]).delete(op[2]);
      else if (op[0] === 'clear') {
        for (const key of Object.keys(document)) if (isRecordList(document[key])) document[key] = [];
        for (const map of maps.values()) map.clear();
      }
    }
  }
  for (const [name, map] of maps) document[name] = [...map.values()];
}

/** Makes renames and creations durable: fsync the directory that holds the entries. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}
