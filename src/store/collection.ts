/**
 * One collection of the store: its records by id, and the indexes built over them on demand
 * (by tenant, by unique key, newest first per tenant), kept up to date by add, delete and
 * replace. No I/O in here: store.ts records what changes and makes it durable.
 */
import { NewestFirst, newerFirst, type AnyRecord } from './newest-first.js';
import { COLLECTION_NAMES, type CollectionName, type CollectionTypes } from './records.js';
import { RawBlock, RawRecord } from './snapshot.js';

/** Unique secondary keys per collection: the store keeps a key → id map for each. */
export const UNIQUE_KEYS: { [K in CollectionName]?: (record: CollectionTypes[K]) => string | null } = {
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
 * Collections whose records stay unread (their snapshot lines' bytes) until first asked for.
 * Users and wallets are nearly all of db.json's bytes, yet a start needs none of them: a call
 * reads one user by id, or one user's wallet, and a page or an email lookup parses a tenant's
 * users then. So a start neither splits nor parses 100,000 of each: the first call that needs
 * the collection splits its lines (an id and a RawRecord each), and each record is parsed when
 * first read. They stay unread only when the snapshot's checksum shows the file is as svc
 * wrote it (snapshot.ts); a hand-edited file is parsed whole at start, so a damaged line is
 * refused then (D12), never at the first email lookup, where it would fail every user create
 * in every tenant.
 */
export const LAZY_COLLECTIONS: ReadonlySet<CollectionName> = new Set(['users', 'wallets']);

/**
 * One collection's records and indexes. Only the id index is built when the store is read
 * from disk; the tenant and unique-key indexes are built on first use and then kept up to
 * date, so a start does not pay for indexes a run may never ask for. A lazy collection read
 * from disk is a RawBlock until first used, then RawRecords, each parsed once when first read.
 */
export class Collection<T extends AnyRecord> {
  readonly #records = new Map<string, T | RawRecord>();
  /** The lines read from disk and not yet split (see LAZY_COLLECTIONS). */
  #block: RawBlock | null = null;
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

  /** The records by id: every use goes through here, so that the first one splits the block read. */
  get #byId(): Map<string, T | RawRecord> {
    if (this.#block !== null) {
      const block = this.#block;
      this.#block = null;
      for (const record of block.records()) this.load(record as T | RawRecord);
    }
    return this.#records;
  }

  /** Adds the block of a lazy collection read from disk, before anything has asked for an index. */
  loadBlock(block: RawBlock): void {
    if (this.#block === null && this.#records.size === 0) this.#block = block;
    else for (const record of block.records()) this.load(record as T | RawRecord);
  }

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
    const byId = this.#byId; // first: it may split the block, which counts what is unparsed
    return this.#unparsed === 0 ? (byId.values() as IterableIterator<T>) : this.#parsedValues();
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
    // Throws only for a hand edit that also mended the checksum (snapshot.ts); the server log then says where.
    const record = raw.parse<T>();
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
    this.#block = null;
    this.#records.clear();
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
  if (!tenantMap) byTenant.set(record.tenantId!, (tenantMap = new Map<string, T>()));
  tenantMap.set(record.id, record);
}

export type Collections = { [K in CollectionName]: Collection<CollectionTypes[K]> };

/** One empty Collection per collection name, each with its unique key. */
export function createCollections(): Collections {
  const collections = {} as Record<CollectionName, Collection<AnyRecord>>;
  for (const name of COLLECTION_NAMES) {
    collections[name] = new Collection(UNIQUE_KEYS[name] as ((record: AnyRecord) => string | null) | undefined);
  }
  return collections as unknown as Collections;
}
