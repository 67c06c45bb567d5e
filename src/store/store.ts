/**
 * The store (DESIGN D12): every collection lives in memory behind id and tenant indexes;
 * lowdb's JSON file under the data dir is the durable copy. A mutation is applied in
 * memory inside `write()`, whose promise settles only once the change is fsynced.
 * Concurrent writes coalesce: while one file write runs, every change that arrives joins
 * the next one (group commit).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Low, Memory } from 'lowdb';
import { ApiError } from '../errors.js';
import { DurableJsonFile } from './durable-file.js';
import { acquireLock } from './lock.js';
import { COLLECTION_NAMES, type CollectionName, type CollectionTypes } from './records.js';

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

/** Unique secondary keys per collection: the store keeps a key → id map for each. */
const UNIQUE_KEYS: { [K in CollectionName]?: (record: CollectionTypes[K]) => string | null } = {
  apiKeys: (key) => `hash:${key.keyHash}`,
  users: (user) => (user.email === null ? null : `${user.tenantId}:${user.email.toLowerCase()}`),
  apps: (app) => `${app.tenantId}:${app.name.toLowerCase()}`,
  wallets: (wallet) => `user:${wallet.userId}`,
  sessions: (session) => `hash:${session.tokenHash}`,
  passkeys: (passkey) => `${passkey.tenantId}:${passkey.credentialId}`,
  telegramAccounts: (account) => `${account.tenantId}:${account.telegramId}`,
  customDomains: (domain) => `domain:${domain.domain}`,
  keyShares: (share) => `${share.walletId}:${share.shareIndex}`,
  delegatedSessions: (session) => `hash:${session.tokenHash}`,
};

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

type AnyRecord = { id: string; tenantId?: string };

class Collection<T extends AnyRecord> {
  readonly byId = new Map<string, T>();
  readonly byTenant = new Map<string, Map<string, T>>();
  readonly byKey = new Map<string, string>();

  constructor(private readonly uniqueKey: ((record: T) => string | null) | undefined) {}

  add(record: T): void {
    this.byId.set(record.id, record);
    if (record.tenantId !== undefined) {
      let tenantMap = this.byTenant.get(record.tenantId);
      if (!tenantMap) this.byTenant.set(record.tenantId, (tenantMap = new Map()));
      tenantMap.set(record.id, record);
    }
    const key = this.uniqueKey?.(record);
    if (key) this.byKey.set(key, record.id);
  }

  delete(record: T): void {
    this.byId.delete(record.id);
    if (record.tenantId !== undefined) this.byTenant.get(record.tenantId)?.delete(record.id);
    const key = this.uniqueKey?.(record);
    if (key && this.byKey.get(key) === record.id) this.byKey.delete(key);
  }
}

type Collections = { [K in CollectionName]: Collection<CollectionTypes[K]> };

export class Store {
  readonly dataDir: string | null;
  readonly #db: Low<StoreDocument>;
  readonly #collections: Collections;
  readonly #releaseLock: () => void;
  #next: Deferred | null = null;
  #writing = false;
  #closed = false;
  #lastWriteError: unknown = null;
  #committedHooks: Array<() => void> | null = null;

  private constructor(db: Low<StoreDocument>, dataDir: string | null, releaseLock: () => void) {
    this.#db = db;
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
      const db = new Low<StoreDocument>(new DurableJsonFile(path), emptyDocument());
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
      for (const record of document[name] as AnyRecord[]) collection.add(record);
    }
  }

  get<K extends CollectionName>(name: K, id: string): CollectionTypes[K] | undefined {
    return this.#collections[name].byId.get(id);
  }

  /** A record of the tenant, or undefined: another tenant's record is as good as absent (D3). */
  getOwned<K extends CollectionName>(name: K, tenantId: string, id: string): CollectionTypes[K] | undefined {
    return (this.#collections[name].byTenant.get(tenantId) as Map<string, CollectionTypes[K]> | undefined)?.get(id);
  }

  /** The record that holds a unique key (see UNIQUE_KEYS). */
  findByKey<K extends CollectionName>(name: K, key: string): CollectionTypes[K] | undefined {
    const collection = this.#collections[name];
    const id = collection.byKey.get(key);
    return id === undefined ? undefined : collection.byId.get(id);
  }

  /** Every record of a collection, in insertion order. */
  all<K extends CollectionName>(name: K): IterableIterator<CollectionTypes[K]> {
    return this.#collections[name].byId.values();
  }

  /** Every record of one tenant, in insertion order. */
  ofTenant<K extends CollectionName>(name: K, tenantId: string): CollectionTypes[K][] {
    const map = this.#collections[name].byTenant.get(tenantId);
    return map ? [...(map.values() as IterableIterator<CollectionTypes[K]>)] : [];
  }

  count<K extends CollectionName>(name: K, tenantId?: string): number {
    const collection = this.#collections[name];
    return tenantId === undefined ? collection.byId.size : (collection.byTenant.get(tenantId)?.size ?? 0);
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
    if (collection.byId.has(record.id)) throw new Error(`duplicate id ${record.id} in ${name}`);
    collection.add(record);
    return record;
  }

  /** Replaces a record with a patched copy (records are never mutated in place). */
  update<K extends CollectionName>(name: K, id: string, patch: Partial<CollectionTypes[K]>): CollectionTypes[K] {
    const collection = this.#collections[name];
    const current = collection.byId.get(id);
    if (!current) throw new Error(`no ${name} record ${id}`);
    const next = { ...current, ...patch, id: current.id } as CollectionTypes[K];
    collection.delete(current);
    collection.add(next);
    return next;
  }

  remove<K extends CollectionName>(name: K, id: string): boolean {
    const collection = this.#collections[name];
    const current = collection.byId.get(id);
    if (!current) return false;
    collection.delete(current);
    return true;
  }

  /**
   * Empties every collection (POST /_emulator/reset). Only inside `write()`, so that the
   * emptying and whatever the same write inserts after it reach the disk together.
   */
  clear(): void {
    if (!this.#committedHooks) throw new Error('clear() is only valid inside store.write()');
    for (const name of COLLECTION_NAMES) {
      const collection = this.#collections[name];
      collection.byId.clear();
      collection.byTenant.clear();
      collection.byKey.clear();
    }
  }

  /** Whether the last write reached the disk (used by /readyz). */
  get writable(): boolean {
    return this.#lastWriteError === null && !this.#closed;
  }

  /** Writes once to check the disk, e.g. for /readyz after a failure. */
  async probe(): Promise<boolean> {
    try {
      await this.#commit();
      return true;
    } catch {
      return false;
    }
  }

  /** Flushes what is pending and releases the lock. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#next || this.#writing) await this.#commit();
    } catch {
      /* the failure was already answered as 503 to whoever wrote */
    } finally {
      this.#closed = true;
      this.#releaseLock();
    }
  }

  #commit(): Promise<void> {
    if (this.dataDir === null) return Promise.resolve();
    if (!this.#next) {
      this.#next = deferred();
      if (!this.#writing) setImmediate(() => void this.#flush());
    }
    return this.#next.promise;
  }

  async #flush(): Promise<void> {
    const batch = this.#next;
    if (!batch) return;
    this.#next = null;
    this.#writing = true;
    try {
      this.#db.data = this.#snapshot();
      await this.#db.write();
      this.#lastWriteError = null;
      batch.resolve();
    } catch (error) {
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
      (document as Record<string, unknown>)[name] = [...this.#collections[name].byId.values()];
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
