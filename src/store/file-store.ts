/**
 * The file store (D12), the embedded default: the collections in memory (store.ts),
 * and lowdb's JSON file under the data dir, with its append-only journal (journal-file.ts),
 * as the durable copy; or nothing durable at all with --in-memory. A mutation is applied in memory inside `write()`
 * and recorded as journal operations; `write()` settles only once they are fdatasynced.
 * Writes that arrive while one append runs share the next one (group commit). Compaction
 * into db.json runs off the request path, and on close.
 */
import { join, resolve } from 'node:path';
import { Low, Memory } from 'lowdb';
import { ApiError } from '../errors.js';
import { prepareDataDir } from './data-dir.js';
import { LAZY_COLLECTIONS, type Collection } from './collection.js';
import { checkDocument, DATA_FILE, emptyDocument, SCHEMA_VERSION, StoreOpenError, type StoreDocument } from './document.js';
import { JournaledJsonFile } from './journal-file.js';
import { acquireLock } from './lock.js';
import type { AnyRecord } from './newest-first.js';
import { COLLECTION_NAMES } from './records.js';
import { RawBlock, type RawRecord } from './snapshot.js';
import { Store, type SnapshotRecords } from './store.js';

export { DATA_FILE, SCHEMA_VERSION, StoreOpenError, type StoreDocument } from './document.js';

export interface StoreOptions {
  /** Directory of the data file; ignored when inMemory. */
  dataDir?: string;
  inMemory?: boolean;
}

/** Compact when the journal outgrows this, or the last snapshot if that is larger. */
export const COMPACT_MIN_JOURNAL_BYTES = 8 * 1024 * 1024;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export class FileStore extends Store {
  readonly dataDir: string | null;
  readonly kind: 'memory' | 'file';
  readonly #db: Low<StoreDocument>;
  readonly #file: JournaledJsonFile<StoreDocument> | null;
  #compaction: Promise<void> | null = null;
  readonly #releaseLock: () => void;
  #next: Deferred | null = null;
  #writing = false;
  #closed = false;
  #lastWriteError: unknown = null;

  private constructor(db: Low<StoreDocument>, dataDir: string | null, releaseLock: () => void) {
    super();
    this.#db = db;
    this.#file = db.adapter instanceof JournaledJsonFile ? (db.adapter as JournaledJsonFile<StoreDocument>) : null;
    this.dataDir = dataDir;
    this.kind = dataDir === null ? 'memory' : 'file';
    this.#releaseLock = releaseLock;
  }

  /** Opens (and locks) the data dir, or an in-memory store. `isNew` tells whether it needs seeding. */
  static async open(options: StoreOptions): Promise<{ store: FileStore; isNew: boolean }> {
    if (options.inMemory) {
      const db = new Low<StoreDocument>(new Memory(), emptyDocument());
      return { store: new FileStore(db, null, () => {}), isNew: true };
    }
    const dataDir = resolve(options.dataDir ?? '.svc');
    try {
      prepareDataDir(dataDir);
    } catch (error) {
      throw new StoreOpenError(`cannot create the data dir ${dataDir}: ${(error as Error).message}`);
    }
    const release = acquireLock(dataDir);
    try {
      const path = join(dataDir, DATA_FILE);
      const db = new Low<StoreDocument>(new JournaledJsonFile<StoreDocument>(path, { lazy: LAZY_COLLECTIONS }), emptyDocument());
      let raw: unknown;
      try {
        raw = await db.adapter.read();
      } catch (error) {
        throw new StoreOpenError(
          `the data file ${path} cannot be read (${(error as Error).message}); it was left untouched. ` + 'Move it away or start with another --data-dir.',
        );
      }
      const store = new FileStore(db, dataDir, release);
      if (raw === null) return { store, isNew: true };
      store.#load(checkDocument(raw, path));
      return { store, isNew: false };
    } catch (error) {
      release();
      throw error;
    }
  }

  #load(document: StoreDocument): void {
    for (const name of COLLECTION_NAMES) {
      const collection = this.collections[name] as unknown as Collection<AnyRecord>;
      // A lazy collection may be a RawBlock, or hold RawRecords (see LAZY_COLLECTIONS in collection.ts).
      const list: unknown = document[name];
      if (list instanceof RawBlock) collection.loadBlock(list);
      else for (const record of list as Array<AnyRecord | RawRecord>) collection.load(record);
    }
  }

  /**
   * Applies `mutate` (synchronously, so nothing interleaves with it) and settles once the
   * change is durable. A failed disk write rejects with 503 store_unavailable.
   */
  async write<T>(mutate: () => T): Promise<T> {
    if (this.#closed) throw new ApiError('store_unavailable', 'the store is closed');
    const { result, hooks } = this.runMutation(mutate);
    await this.#commit();
    for (const hook of hooks) hook();
    return result;
  }

  /** Settles once the writes under way are on disk. */
  async settled(): Promise<void> {
    if (this.#next) await this.#next.promise.catch(() => {});
    while (this.#writing) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Whether the last write reached the disk (used by /readyz). */
  get writable(): boolean {
    return this.#lastWriteError === null && !this.#closed;
  }

  /** Checks the disk again (for /readyz after a failure): the journal can be opened and synced. */
  async probe(): Promise<boolean> {
    if (!this.#file) return true;
    try {
      await this.#file.probe();
      this.#lastWriteError = null;
      return true;
    } catch (error) {
      this.#lastWriteError = error;
      return false;
    }
  }

  /**
   * Flushes what is pending, compacts the journal into db.json (unless db.json already holds
   * everything, as svc writes it: a stop after a run that wrote nothing rewrites nothing), and
   * releases the lock.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#next || this.#writing || this.ops.length > 0) await this.#commit();
      while (this.#compaction) await this.#compaction;
      if (this.#file && this.#lastWriteError === null && !this.#file.current) await this.#compact();
    } catch {
      /* a failed append was already answered as 503; the journal keeps what was acknowledged */
    } finally {
      this.#closed = true;
      await this.#file?.close();
      this.#releaseLock();
    }
  }

  /**
   * Replaces every record by a snapshot's (services/snapshots.ts) without a journal line of
   * every record. Given the snapshot's `file`, between appends, one journal batch loads it (a
   * hard link, journal-file.ts appendLoad) and the records are loaded as read: a restore of 10k
   * users then costs a link and two small syncs, not writing 8 MB again. Where no hard link can
   * be made, and without a file, the journal is rotated, the records loaded, and db.json written
   * from memory, covering the rotated journal. Either way a crash leaves the old store or the
   * new one; a write made meanwhile waits for the end.
   */
  override async replaceAll(records: SnapshotRecords, file?: string): Promise<void> {
    if (!this.#file) return super.replaceAll(records);
    if (this.#closed) throw new ApiError('store_unavailable', 'the store is closed');
    await this.#commit();
    if (file !== undefined && (await this.#loadFile(records, file))) return;
    while (this.#compaction) await this.#compaction;
    try {
      await this.#claimCompaction(async () => {
        while (this.#writing) await new Promise((resolve) => setImmediate(resolve));
        this.#writing = true;
        try {
          await this.#file!.rotate();
          this.loadAll(records);
          // Changes made in memory since the rotation came before the restore, which replaced them.
          this.ops = [];
          await this.#writeSnapshot();
        } finally {
          this.#writing = false;
          if (this.#next) setImmediate(() => void this.#flush());
        }
      });
    } catch (error) {
      // In memory already; the next compaction writes it again.
      this.#lastWriteError = error;
      throw new ApiError('store_unavailable', `the data dir cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }

  /** Loads `records` as the journal batch that loads `file` says; false, with nothing changed, when no hard link to it can be made. */
  async #loadFile(records: SnapshotRecords, file: string): Promise<boolean> {
    while (this.#writing) await new Promise((resolve) => setImmediate(resolve));
    this.#writing = true;
    try {
      await this.#file!.appendLoad(file);
    } catch (error) {
      if (['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
      this.#lastWriteError = error;
      throw new ApiError('store_unavailable', `the data dir cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    } finally {
      this.#writing = false;
      if (this.#next) setImmediate(() => void this.#flush());
    }
    this.loadAll(records);
    // Changes made in memory while the batch was written came before the restore, which replaced them.
    this.ops = [];
    this.#lastWriteError = null;
    return true;
  }

  /** Compacts the journal into db.json now (after seeding, on close). */
  async compact(): Promise<void> {
    if (!this.#file) return;
    await this.#commit();
    await this.#compact();
  }

  /** Waits for any compaction under way, then rotates (between appends) and compacts. */
  async #compact(): Promise<void> {
    while (this.#compaction) await this.#compaction;
    return this.#claimCompaction(async () => {
      while (this.#writing) await new Promise((resolve) => setImmediate(resolve));
      this.#writing = true;
      try {
        await this.#file!.rotate();
      } finally {
        this.#writing = false;
        if (this.#next) setImmediate(() => void this.#flush());
      }
      await this.#writeSnapshot();
    });
  }

  /** Runs one compaction at a time: the slot is taken before the first await. */
  #claimCompaction(run: () => Promise<void>): Promise<void> {
    const running = run();
    const tracked: Promise<void> = running
      .catch(() => {
        /* the journal still holds everything; the next compaction tries again */
      })
      .finally(() => {
        if (this.#compaction === tracked) this.#compaction = null;
      });
    this.#compaction = tracked;
    return running;
  }

  /**
   * Streams a snapshot of what is in memory into db.json, alongside later appends. The
   * journal was just rotated, so the snapshot holds every batch the rotated journal holds.
   */
  async #writeSnapshot(): Promise<void> {
    this.#db.data = this.#snapshot();
    await this.#db.write();
  }

  #commit(): Promise<void> {
    if (this.dataDir === null) {
      this.ops = [];
      return Promise.resolve();
    }
    if (!this.#next) {
      this.#next = deferred();
      if (!this.#writing) setImmediate(() => void this.#flush());
    }
    return this.#next.promise;
  }

  async #flush(): Promise<void> {
    // A compaction rotating the journal holds #writing; it reschedules this flush when done.
    if (this.#writing) return;
    const batch = this.#next;
    if (!batch) return;
    this.#next = null;
    this.#writing = true;
    const ops = this.ops;
    this.ops = [];
    try {
      await this.#file!.append(ops);
      this.#lastWriteError = null;
      batch.resolve();
      // Compaction starts between appends (rotation needs that) and then runs alongside them.
      const file = this.#file!;
      if (!this.#compaction && file.journalBytes > Math.max(COMPACT_MIN_JOURNAL_BYTES, file.snapshotBytes)) {
        await file.rotate();
        void this.#claimCompaction(() => this.#writeSnapshot());
      }
    } catch (error) {
      // The batch never became durable: keep its operations for the next append.
      this.ops = [...ops, ...this.ops];
      this.#lastWriteError = error;
      batch.reject(new ApiError('store_unavailable', `the data dir cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`));
    } finally {
      this.#writing = false;
      if (this.#next) setImmediate(() => void this.#flush());
    }
  }

  #snapshot(): StoreDocument {
    const document = { schemaVersion: SCHEMA_VERSION } as StoreDocument;
    for (const name of COLLECTION_NAMES) {
      (document as Record<string, unknown>)[name] = this.collections[name].held();
    }
    return document;
  }
}
