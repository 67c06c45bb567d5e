/**
 * The store (DESIGN D12): every collection lives in memory behind id, tenant, unique-key and
 * newest-first indexes; lowdb's JSON file under the data dir, with its append-only journal
 * (journal-file.ts), is the durable copy. A mutation is applied in memory inside `write()`
 * and recorded as journal operations; `write()` settles only once they are fdatasynced.
 * Writes that arrive while one append runs share the next one (group commit). Compaction
 * into db.json runs off the request path, and on close.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Low, Memory } from 'lowdb';
import { ApiError } from '../errors.js';
import { JournaledJsonFile, type JournalOp } from './journal-file.js';
import { acquireLock } from './lock.js';
import { COLLECTION_NAMES, type CollectionName, type CollectionTypes } from './records.js';
import { RawRecord } from './snapshot.js';

/** The version of the file's layout; a newer file is refused, never overwritten. */
export const SCHEMA_VERSION = 1;
export const DATA_FILE = 'db.json';

export type StoreDocument = { schemaVersion: number } & { [K in CollectionName]: CollectionTypes[K][] };

/** A store that cannot be opened: the message says why and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

export interface StoreOptions {
  /** Directory of the data file; ignored when inMemory. */
  dataDir?: string;
  inMemory?: boolean;
}

/** Compact when the journal outgrows this, or the last snapshot if that is larger. */
export const COMPACT_MIN_JOURNAL_BYTES = 8 * 1024 * 1024;

/** Unique secondary keys per collection: the store keeps a key → id map for each. */
const UNIQUE_KEYS: { [K in CollectionName]?: (record: CollectionTypes[K]) => string | null } = {
  apiKeys: (key) => `hash:${key.keyHash}`,
  users: (user) => (user.email === null ? null : `${user.tenantId}:${user.email.toLowerCase()}`),
  apps: (app) => `${app.tenantId}:${app.name.toLowerCase()}`,
  sessions: (session) => `hash:${session.tokenHash}`,
  passkeys: (passkey) => `${passkey.tenantId}:${passkey.credentialId}`,
  telegramAccounts: (account) => `${account.tenantId}:${account.telegramId}`,
  customDomains: (domain) => `domain:${domain.domain}`,
  keyShares: (share) => `${share.walletId}:${share.shareIndex}`,
  delegatedSessions: (session) => `hash:${session.tokenHash}`,
};

/**
 * Collections whose records stay unparsed (their snapshot line's text) until first asked for.
 * Wallets are most of db.json's bytes, yet only a user's own wallet calls read one, so a start
 * does not parse (nor collect the garbage of) 100,000 of them. Users stay eager: a damaged
 * user line would otherwise surface at the first email lookup and fail every user create in
 * every tenant from then on, instead of being refused at start (D12).
 */
const LAZY_COLLECTIONS: ReadonlySet<CollectionName> = new Set(['wallets']);

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

type AnyRecord = { id: string; tenantId?: string; createdAt?: string };

/** Newest first, then id descending (D7's list order). */
function newerFirst(a: AnyRecord, b: AnyRecord): number {
  const ca = a.createdAt ?? '';
  const cb = b.createdAt ?? '';
  if (ca !== cb) return ca < cb ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Oldest first, then id ascending: newerFirst the other way round. */
function olderFirst(a: AnyRecord, b: AnyRecord): number {
  return newerFirst(b, a);
}

/** Where `record` goes in (or sits in) `list`, which is sorted by `order`: binary search. */
function position(list: AnyRecord[], record: AnyRecord, order: (a: AnyRecord, b: AnyRecord) => number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (order(list[mid]!, record) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * One tenant's records newest first (D7's list order), kept up to date. A record that sorts
 * before all of the array (the usual insert: the newest) goes into a short side list, put in
 * front at the next read, so a run of inserts costs O(1) each instead of moving the whole
 * array each time (15 µs per insert at 100k records). An update keeps its record's place,
 * so it is swapped there.
 */
class NewestFirst<T extends AnyRecord> {
  /** Newest first. */
  #settled: T[];
  /** Records that sort before all of #settled, oldest first. */
  #front: T[] = [];

  constructor(records: T[]) {
    this.#settled = records.sort(newerFirst);
  }

  /** Newest first, with the records inserted since the last call put in front. */
  array(): readonly T[] {
    if (this.#front.length > 0) {
      this.#settled = this.#front.reverse().concat(this.#settled);
      this.#front = [];
    }
    return this.#settled;
  }

  insert(record: T): void {
    if (!this.#inFront(record)) {
      this.#settled.splice(position(this.#settled, record, newerFirst), 0, record);
      return;
    }
    const front = this.#front;
    const last = front[front.length - 1];
    if (last === undefined || newerFirst(record, last) < 0) front.push(record);
    else front.splice(position(front, record, olderFirst), 0, record);
  }

  /** Takes `record` out; false when it is not where its sort keys say it is. */
  remove(record: T): boolean {
    const [list, at] = this.#find(record);
    if (at === -1) return false;
    list.splice(at, 1);
    return true;
  }

  /** Puts `next` where `current` is; false when current is not found there. Same sort keys only. */
  swap(current: T, next: T): boolean {
    const [list, at] = this.#find(current);
    if (at === -1) return false;
    list[at] = next;
    return true;
  }

  #inFront(record: T): boolean {
    const head = this.#settled[0];
    return head === undefined || newerFirst(record, head) < 0;
  }

  #find(record: T): [T[], number] {
    const [list, order] = this.#inFront(record) ? [this.#front, olderFirst] : [this.#settled, newerFirst];
    const at = position(list, record, order);
    return [list, list[at] === record ? at : -1];
  }
}

/**
 * One collection's records and indexes. Only the id index is built when the store is read
 * from disk; the tenant and unique-key indexes are built on first use and then kept up to
 * date, so a start does not pay for indexes a run may never ask for. Records of a lazy
 * collection are held as RawRecords until first read, each then parsed once and kept.
 */
class Collection<T extends AnyRecord> {
  readonly #byId = new Map<string, T | RawRecord>();
  /** How many records are still RawRecords. */
  #unparsed = 0;
  #byTenant: Map<string, Map<string, T>> | null = null;
  #byKey: Map<string, string> | null = null;
  /** Per tenant, newest first; built on first use, then kept up to date. */
  readonly #orders = new Map<string, NewestFirst<T>>();
  /** Per tenant, a counter that changes with every add and delete (for derived caches). */
  readonly #versions = new Map<string, number>();
  /** Bumped by clear(), so that a reset changes every tenant's version, even one never written since the start. */
  #epoch = 0;

  constructor(private readonly uniqueKey: ((record: T) => string | null) | undefined) {}

  /** Adds a record read from the disk, before anything has asked for an index. */
  load(record: T | RawRecord): void {
    if (this.#byId.get(record.id) instanceof RawRecord) this.#unparsed -= 1;
    if (record instanceof RawRecord) this.#unparsed += 1;
    this.#byId.set(record.id, record);
  }

  get size(): number {
    return this.#byId.size;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  get(id: string): T | undefined {
    const held = this.#byId.get(id);
    return held instanceof RawRecord ? this.#parse(held) : held;
  }

  /** Every record, in insertion order (parsing any still held as text). */
  values(): IterableIterator<T> {
    return this.#unparsed === 0 ? (this.#byId.values() as IterableIterator<T>) : this.#parsedValues();
  }

  *#parsedValues(): IterableIterator<T> {
    for (const held of this.#byId.values()) yield held instanceof RawRecord ? this.#parse(held) : held;
  }

  /** Every record as held, unparsed ones as RawRecords: what a snapshot writes back. */
  held(): Array<T | RawRecord> {
    return [...this.#byId.values()];
  }

  /** Parses a record held as text and keeps it in its place (set on a present key keeps the order). */
  #parse(raw: RawRecord): T {
    let record: T;
    try {
      record = JSON.parse(raw.text) as T;
    } catch (error) {
      // Only a hand edit of db.json gets here (svc writes whole lines); say where, in the server log.
      throw new Error(`the record ${raw.id} in db.json is not valid JSON (${(error as Error).message}); fix that line or restore the file`);
    }
    if (record.id !== raw.id) throw new Error(`the stored record ${raw.id} holds id ${record.id}`);
    this.#byId.set(raw.id, record);
    this.#unparsed -= 1;
    return record;
  }

  add(record: T): void {
    this.#index(record);
    if (record.tenantId !== undefined) this.#orders.get(record.tenantId)?.insert(record);
  }

  delete(record: T): void {
    this.#unindex(record);
    const order = record.tenantId === undefined ? undefined : this.#orders.get(record.tenantId);
    // Not where expected: rebuilt on next use.
    if (order && !order.remove(record)) this.#orders.delete(record.tenantId!);
  }

  /**
   * Puts `next` (same id) in place of `current`. Like delete + add it moves the record to the
   * end of insertion order; an update that keeps createdAt keeps its newest-first place.
   */
  replace(current: T, next: T): void {
    const order = current.tenantId === undefined || next.tenantId !== current.tenantId ? undefined : this.#orders.get(current.tenantId);
    if (order && newerFirst(current, next) === 0 && order.swap(current, next)) {
      this.#unindex(current);
      this.#index(next);
      return;
    }
    this.delete(current);
    this.add(next);
  }

  /** Enters a record in every index but the newest-first orders. */
  #index(record: T): void {
    this.#byId.set(record.id, record);
    if (record.tenantId !== undefined) {
      this.#versions.set(record.tenantId, (this.#versions.get(record.tenantId) ?? 0) + 1);
      if (this.#byTenant) addToTenant(this.#byTenant, record);
    }
    if (this.#byKey) this.#addKey(this.#byKey, record);
  }

  #unindex(record: T): void {
    this.#byId.delete(record.id);
    if (record.tenantId !== undefined) {
      this.#versions.set(record.tenantId, (this.#versions.get(record.tenantId) ?? 0) + 1);
      this.#byTenant?.get(record.tenantId)?.delete(record.id);
    }
    if (this.#byKey) {
      const key = this.uniqueKey?.(record);
      if (key && this.#byKey.get(key) === record.id) this.#byKey.delete(key);
    }
  }

  clear(): void {
    this.#byId.clear();
    this.#unparsed = 0;
    this.#byTenant = null;
    this.#byKey = null;
    this.#orders.clear();
    this.#epoch += 1;
  }

  /** One tenant's records by id, in insertion order. */
  ofTenant(tenantId: string): Map<string, T> | undefined {
    if (!this.#byTenant) {
      // Built aside and kept only when whole: a record that fails to parse must not leave it half built.
      const byTenant = new Map<string, Map<string, T>>();
      for (const record of this.values()) if (record.tenantId !== undefined) addToTenant(byTenant, record);
      this.#byTenant = byTenant;
    }
    return this.#byTenant.get(tenantId);
  }

  /** The id of the record that holds a unique key. */
  idOfKey(key: string): string | undefined {
    if (!this.#byKey) {
      const byKey = new Map<string, string>();
      for (const record of this.values()) this.#addKey(byKey, record);
      this.#byKey = byKey;
    }
    return this.#byKey.get(key);
  }

  #addKey(byKey: Map<string, string>, record: T): void {
    const key = this.uniqueKey?.(record);
    if (key) byKey.set(key, record.id);
  }

  /** Only ever grows: both the epoch and each tenant's counter only count up. */
  version(tenantId: string): number {
    return this.#epoch + (this.#versions.get(tenantId) ?? 0);
  }

  newestFirst(tenantId: string): readonly T[] {
    let order = this.#orders.get(tenantId);
    if (!order) this.#orders.set(tenantId, (order = new NewestFirst([...(this.ofTenant(tenantId)?.values() ?? [])])));
    return order.array();
  }
}

function addToTenant<T extends AnyRecord>(byTenant: Map<string, Map<string, T>>, record: T): void {
  let tenantMap = byTenant.get(record.tenantId!);
  if (!tenantMap) byTenant.set(record.tenantId!, (tenantMap = new Map()));
  tenantMap.set(record.id, record);
}

type Collections = { [K in CollectionName]: Collection<CollectionTypes[K]> };

export class Store {
  readonly dataDir: string | null;
  readonly #db: Low<StoreDocument>;
  readonly #file: JournaledJsonFile<StoreDocument> | null;
  #ops: JournalOp[] = [];
  #compaction: Promise<void> | null = null;
  readonly #collections: Collections;
  readonly #releaseLock: () => void;
  #next: Deferred | null = null;
  #writing = false;
  #closed = false;
  #lastWriteError: unknown = null;
  #committedHooks: Array<() => void> | null = null;

  private constructor(db: Low<StoreDocument>, dataDir: string | null, releaseLock: () => void) {
    this.#db = db;
    this.#file = db.adapter instanceof JournaledJsonFile ? (db.adapter as JournaledJsonFile<StoreDocument>) : null;
    this.dataDir = dataDir;
    this.#releaseLock = releaseLock;
    const collections = {} as Record<CollectionName, Collection<AnyRecord>>;
    for (const name of COLLECTION_NAMES) {
      collections[name] = new Collection(UNIQUE_KEYS[name] as ((record: AnyRecord) => string | null) | undefined);
    }
    this.#collections = collections as unknown as Collections;
  }

  /** Opens (and locks) the data dir, or an in-memory store. `isNew` tells whether it needs seeding. */
  static async open(options: StoreOptions): Promise<{ store: Store; isNew: boolean }> {
    if (options.inMemory) {
      const db = new Low<StoreDocument>(new Memory(), emptyDocument());
      return { store: new Store(db, null, () => {}), isNew: true };
    }
    const dataDir = resolve(options.dataDir ?? '.svc');
    try {
      mkdirSync(dataDir, { recursive: true });
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
          `the data file ${path} cannot be read (${(error as Error).message}); it was left untouched. ` +
            'Move it away or start with another --data-dir.',
        );
      }
      const store = new Store(db, dataDir, release);
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
      const collection = this.#collections[name] as unknown as Collection<AnyRecord>;
      // A lazy collection's records may be RawRecords (see LAZY_COLLECTIONS).
      for (const record of document[name] as Array<AnyRecord | RawRecord>) collection.load(record);
    }
  }

  get<K extends CollectionName>(name: K, id: string): CollectionTypes[K] | undefined {
    return this.#collections[name].get(id);
  }

  /** A record of the tenant, or undefined: another tenant's record is as good as absent (D3). */
  getOwned<K extends CollectionName>(name: K, tenantId: string, id: string): CollectionTypes[K] | undefined {
    const record = this.#collections[name].get(id);
    return record !== undefined && (record as AnyRecord).tenantId === tenantId ? record : undefined;
  }

  /** The record that holds a unique key (see UNIQUE_KEYS). */
  findByKey<K extends CollectionName>(name: K, key: string): CollectionTypes[K] | undefined {
    const collection = this.#collections[name];
    const id = collection.idOfKey(key);
    return id === undefined ? undefined : collection.get(id);
  }

  /** Every record of a collection, in insertion order. */
  all<K extends CollectionName>(name: K): IterableIterator<CollectionTypes[K]> {
    return this.#collections[name].values();
  }

  /** Every record of one tenant, newest first then id (D7); a live view: do not change it. */
  newestFirst<K extends CollectionName>(name: K, tenantId: string): readonly CollectionTypes[K][] {
    return this.#collections[name].newestFirst(tenantId);
  }

  /** Changes whenever a record of the tenant is added, replaced or removed in the collection, and at a reset. */
  version(name: CollectionName, tenantId: string): number {
    return this.#collections[name].version(tenantId);
  }

  /** Every record of one tenant, in insertion order. */
  ofTenant<K extends CollectionName>(name: K, tenantId: string): CollectionTypes[K][] {
    const map = this.#collections[name].ofTenant(tenantId);
    return map ? [...(map.values() as IterableIterator<CollectionTypes[K]>)] : [];
  }

  count<K extends CollectionName>(name: K, tenantId?: string): number {
    const collection = this.#collections[name];
    return tenantId === undefined ? collection.size : (collection.ofTenant(tenantId)?.size ?? 0);
  }

  /**
   * Applies `mutate` (synchronously, so nothing interleaves with it) and settles once the
   * change is durable. A failed disk write rejects with 503 store_unavailable.
   */
  async write<T>(mutate: () => T): Promise<T> {
    if (this.#closed) throw new ApiError('store_unavailable', 'the store is closed');
    const hooks: Array<() => void> = [];
    this.#committedHooks = hooks;
    let result: T;
    try {
      result = mutate();
    } finally {
      this.#committedHooks = null;
    }
    await this.#commit();
    for (const hook of hooks) hook();
    return result;
  }

  /**
   * Runs `hook` once the current write is durable (for work that must not start before,
   * such as sending a webhook for an event). Only callable inside `write()`.
   */
  onCommitted(hook: () => void): void {
    if (!this.#committedHooks) throw new Error('onCommitted() is only valid inside store.write()');
    this.#committedHooks.push(hook);
  }

  insert<K extends CollectionName>(name: K, record: CollectionTypes[K]): CollectionTypes[K] {
    const collection = this.#collections[name];
    if (collection.has(record.id)) throw new Error(`duplicate id ${record.id} in ${name}`);
    collection.add(record);
    this.#ops.push(['put', name, record]);
    return record;
  }

  /** Replaces a record with a patched copy (records are never mutated in place). */
  update<K extends CollectionName>(name: K, id: string, patch: Partial<CollectionTypes[K]>): CollectionTypes[K] {
    const collection = this.#collections[name];
    const current = collection.get(id);
    if (!current) throw new Error(`no ${name} record ${id}`);
    const next = { ...current, ...patch, id: current.id } as CollectionTypes[K];
    collection.replace(current, next);
    this.#ops.push(['put', name, next]);
    return next;
  }

  remove<K extends CollectionName>(name: K, id: string): boolean {
    const collection = this.#collections[name];
    const current = collection.get(id);
    if (!current) return false;
    collection.delete(current);
    this.#ops.push(['del', name, id]);
    return true;
  }

  /**
   * Empties every collection (POST /_emulator/reset). Only inside `write()`, so that the
   * emptying and whatever the same write inserts after it reach the disk together.
   */
  clear(): void {
    if (!this.#committedHooks) throw new Error('clear() is only valid inside store.write()');
    for (const name of COLLECTION_NAMES) this.#collections[name].clear();
    this.#ops.push(['clear']);
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

  /** Flushes what is pending, compacts the journal into db.json, and releases the lock. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#next || this.#writing || this.#ops.length > 0) await this.#commit();
      if (this.#file && this.#lastWriteError === null) await this.#compact();
    } catch {
      /* a failed append was already answered as 503; the journal keeps what was acknowledged */
    } finally {
      this.#closed = true;
      await this.#file?.close();
      this.#releaseLock();
    }
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
      this.#ops = [];
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
    const ops = this.#ops;
    this.#ops = [];
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
      this.#ops = [...ops, ...this.#ops];
      this.#lastWriteError = error;
      batch.reject(
        new ApiError('store_unavailable', `the data dir cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`),
      );
    } finally {
      this.#writing = false;
      if (this.#next) setImmediate(() => void this.#flush());
    }
  }

  #snapshot(): StoreDocument {
    const document = { schemaVersion: SCHEMA_VERSION } as StoreDocument;
    for (const name of COLLECTION_NAMES) {
      (document as Record<string, unknown>)[name] = this.#collections[name].held();
    }
    return document;
  }
}

function emptyDocument(): StoreDocument {
  const document = { schemaVersion: SCHEMA_VERSION } as StoreDocument;
  for (const name of COLLECTION_NAMES) (document as Record<string, unknown>)[name] = [];
  return document;
}

/** Refuses a file this version cannot read, with a message that says why. */
function checkDocument(raw: unknown, path: string): StoreDocument {
  const refuse = (why: string): never => {
    throw new StoreOpenError(`the data file ${path} ${why}; it was left untouched. Move it away or start with another --data-dir.`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse('does not hold a JSON object');
  const document = raw as Record<string, unknown>;
  const version = document['schemaVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version)) return refuse('has no schemaVersion');
  if (version > SCHEMA_VERSION) {
    return refuse(`was written by a newer svc (schema version ${version}, this one reads up to ${SCHEMA_VERSION})`);
  }
  for (const name of COLLECTION_NAMES) {
    const value = document[name];
    if (value === undefined) document[name] = [];
    else if (!Array.isArray(value)) refuse(`has a "${name}" that is not a list`);
  }
  return document as StoreDocument;
}
