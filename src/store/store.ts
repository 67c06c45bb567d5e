/**
 * The store as the services see it (D12): every collection in memory behind its id,
 * tenant, unique-key and newest-first indexes (collection.ts), read synchronously, and changed
 * only inside `write()`. Where the changes are kept is a backend's business: the data dir's
 * journal and db.json (file-store.ts, the embedded default), or a PostgreSQL database that
 * several `svc serve` processes share (postgres/store.ts). Both pass the one contract suite
 * (store-contract.ts).
 *
 * A backend shared by several processes also keeps what those processes must agree on beyond
 * records: the rate-limit buckets, the claim on a delivery attempt, the injected faults, the
 * clock and the emulated DNS records. A store of one process keeps them in memory, here (the
 * services keep the faults and the DNS records themselves).
 */
import { ApiError } from '../errors.js';
import { createCollections, type Collection, type Collections } from './collection.js';
import type { AnyRecord } from './newest-first.js';
import { COLLECTION_NAMES, type CollectionName, type CollectionTypes } from './records.js';
import { RawBlock, RawRecord } from './snapshot.js';
import { TokenBuckets, type Decision } from './token-buckets.js';

/** One change, as a backend keeps it: a record put (added or replaced), a record deleted, or every collection emptied. */
export type StoreOp = ['put', string, { id: string }] | ['del', string, string] | ['clear'];

/**
 * The answer to a claim on a delivery attempt: this process makes it; another process is
 * making it (for at most `forMs` more, after which its claim lapses); or it is not due
 * (`nextAttemptAt`, null when no attempt is planned), because it was made meanwhile.
 */
export type Claim = { state: 'claimed' } | { state: 'busy'; forMs: number } | { state: 'not-due'; nextAttemptAt: string | null };

/** The injected faults (D11) as a shared store keeps them, for every process to count requests against. */
export interface SharedFaults {
  /** Whether any fault may still match (known without asking the database). */
  readonly active: boolean;
  /** Whether some fault names a tenant: only then does a request's tenant need finding (known without asking). */
  readonly scoped: boolean;
  add(fault: SharedFault): Promise<void>;
  clear(): Promise<number>;
  list(): Promise<SharedFault[]>;
  /**
   * Counts a request against the first fault it matches, atomically across processes: a fault
   * with a tenant matches only a request of `tenantId` (null: the request is no tenant's).
   */
  take(method: string, relativePath: string, tenantId: string | null): Promise<SharedFault | undefined>;
}

export interface SharedFault {
  id: string;
  method: string | null;
  path: string;
  /** The path's pattern as a regular expression source (POSIX-compatible). */
  pattern: string;
  status: number | null;
  delay: string | null;
  delayMs: number;
  count: number;
  remaining: number;
  /** The tenant whose requests alone meet it, or null for every request. */
  tenant: string | null;
  createdAt: string;
}

/**
 * The emulated DNS TXT records (docs/control-plane.md#emulated-dns) as a shared store keeps them,
 * so that a record set through one process answers a verification made by another. Each call
 * reads or changes the database itself: nothing is cached in a process.
 */
export interface SharedTxtRecords {
  /** Every name's record, by name. */
  all(): Promise<Record<string, StoredTxtRecord>>;
  get(name: string): Promise<StoredTxtRecord | undefined>;
  /** Sets the name's record; false (nothing stored) when the name is new and `maxNames` are held. */
  put(name: string, record: StoredTxtRecord, maxNames: number): Promise<boolean>;
  /** Removes the name's record; false when there was none. */
  remove(name: string): Promise<boolean>;
}

/** One emulated TXT record as a store keeps it, under its name. */
export interface StoredTxtRecord {
  values: string[];
  updatedAt: string;
}

/** What one write of a batch came to: its result and onCommitted hooks, or the error its mutation threw. */
export type Outcome = { ok: true; value: unknown; hooks: Array<() => void> } | { ok: false; error: unknown };

/** Every collection's records as a snapshot holds them: records, RawRecords, or a lazy collection's RawBlock (snapshot.ts). */
export type SnapshotRecords = Partial<Record<CollectionName, readonly unknown[] | RawBlock>>;

/** A change made by another process sharing the store, once applied here. */
export type RemoteChange = { op: 'put'; name: CollectionName; record: AnyRecord } | { op: 'del'; name: CollectionName; id: string } | { op: 'clear' };

export abstract class Store {
  /** The data dir of a file store; null in memory or in a database. */
  abstract readonly dataDir: string | null;
  /** What `/readyz` and the dashboard name the backend. */
  abstract readonly kind: 'memory' | 'file' | 'postgres';
  protected readonly collections: Collections = createCollections();
  /** The changes of the write under way. */
  protected ops: StoreOp[] = [];
  /** How to take back the changes of the write under way, newest last (a backend that can refuse a write needs them). */
  protected undo: Array<() => void> | null = null;
  /**
   * The tenants the write under way touches, gathered only when a backend asks (the PostgreSQL
   * store locks per tenant); `every` once it empties the store.
   */
  protected reach: { tenants: Set<string>; every: boolean } | null = null;
  #committedHooks: Array<() => void> | null = null;
  readonly #remoteListeners = new Set<(change: RemoteChange) => void>();
  readonly #buckets = new TokenBuckets();

  get<K extends CollectionName>(name: K, id: string): CollectionTypes[K] | undefined {
    return this.collections[name].get(id);
  }

  /** A record of the tenant, or undefined: another tenant's record is as good as absent (D3). */
  getOwned<K extends CollectionName>(name: K, tenantId: string, id: string): CollectionTypes[K] | undefined {
    const record = this.collections[name].get(id);
    return record !== undefined && (record as AnyRecord).tenantId === tenantId ? record : undefined;
  }

  /** The record that holds a unique key (see UNIQUE_KEYS in collection.ts). */
  findByKey<K extends CollectionName>(name: K, key: string): CollectionTypes[K] | undefined {
    const collection = this.collections[name];
    const id = collection.idOfKey(key);
    return id === undefined ? undefined : collection.get(id);
  }

  /** Every record of a collection, in insertion order. */
  all<K extends CollectionName>(name: K): IterableIterator<CollectionTypes[K]> {
    return this.collections[name].values();
  }

  /** Every record of one tenant, newest first then id (D7); a live view: do not change it. */
  newestFirst<K extends CollectionName>(name: K, tenantId: string): readonly CollectionTypes[K][] {
    return this.collections[name].newestFirst(tenantId);
  }

  /** Changes whenever a record of the tenant is added, replaced or removed in the collection, and at a reset. */
  version(name: CollectionName, tenantId: string): number {
    return this.collections[name].version(tenantId);
  }

  /** Every record of one tenant, in insertion order. */
  ofTenant<K extends CollectionName>(name: K, tenantId: string): CollectionTypes[K][] {
    const map = this.collections[name].ofTenant(tenantId);
    return map ? [...(map.values() as IterableIterator<CollectionTypes[K]>)] : [];
  }

  count<K extends CollectionName>(name: K, tenantId?: string): number {
    const collection = this.collections[name];
    return tenantId === undefined ? collection.size : (collection.ofTenant(tenantId)?.size ?? 0);
  }

  /**
   * Runs `mutate` (synchronously, so nothing interleaves with it) and settles once the change
   * is durable; a backend that cannot keep it rejects with 503 store_unavailable.
   */
  abstract write<T>(mutate: () => T): Promise<T>;

  /** Brings the records up to date with what other processes wrote; undefined when nothing can be behind (one process). */
  sync(): Promise<void> | undefined {
    return undefined;
  }

  /** Settles once every write this process started has settled. */
  abstract settled(): Promise<void>;

  /** Whether the last write was kept (used by /readyz). */
  abstract get writable(): boolean;

  /** Why the store cannot be written, when `writable` is false (what /readyz says). */
  get unavailableReason(): string {
    return 'the data dir cannot be written';
  }

  /** Checks the backend again (for /readyz after a failure). */
  abstract probe(): Promise<boolean>;

  /** Makes what is written compact and quick to open (after seeding); ends the start, so a process waiting to open goes on. */
  abstract compact(): Promise<void>;

  /** Flushes what is pending and lets go of the backend. */
  abstract close(): Promise<void>;

  /**
   * Takes a token from the rate-limit bucket `id` (D16). A store of one process answers at
   * once; a shared one keeps the buckets where every process takes from them.
   */
  takeToken(id: string, rate: number): Decision | Promise<Decision> {
    return this.#buckets.take(id, rate, performance.now());
  }

  /**
   * Claims the next attempt of delivery `id`, due at or before `nowIso`, for this process, for
   * `holdMs` of real time at most. A store of one process has no one to share it with.
   */
  claimAttempt(_id: string, _nowIso: string, _holdMs: number): Promise<Claim> {
    return Promise.resolve({ state: 'claimed' });
  }

  /** Lets go of this process's claim on an attempt it will not make, so that no one waits for it to lapse. */
  releaseAttempt(_id: string): Promise<void> {
    return Promise.resolve();
  }

  /** The faults every process shares, when the store is shared; null when they live in this process (services/faults.ts). */
  get sharedFaults(): SharedFaults | null {
    return null;
  }

  /** The emulated DNS TXT records every process shares, when the store is shared; null when they live in this process (services/dns-records.ts). */
  get sharedTxtRecords(): SharedTxtRecords | null {
    return null;
  }

  /** Called with each change another process made, once applied here (the dispatcher plans deliveries from it). */
  onRemoteChange(listener: (change: RemoteChange) => void): () => void {
    this.#remoteListeners.add(listener);
    return () => this.#remoteListeners.delete(listener);
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
    const collection = this.collections[name];
    if (collection.has(record.id)) throw new Error(`duplicate id ${record.id} in ${name}`);
    collection.add(record);
    this.ops.push(['put', name, record]);
    this.undo?.push(() => collection.delete(record));
    this.reach?.tenants.add(tenantOf(record));
    return record;
  }

  /** Replaces a record with a patched copy (records are never mutated in place). */
  update<K extends CollectionName>(name: K, id: string, patch: Partial<CollectionTypes[K]>): CollectionTypes[K] {
    const collection = this.collections[name];
    const current = collection.get(id);
    // Only a race can get here (another process removed it meanwhile): answer as if it had gone first.
    if (!current) throw new ApiError('not_found', `no ${name} record ${id}`);
    const next = { ...current, ...patch, id: current.id } as CollectionTypes[K];
    collection.replace(current, next);
    this.ops.push(['put', name, next]);
    this.undo?.push(() => collection.replace(next, current));
    this.reach?.tenants.add(tenantOf(current));
    return next;
  }

  remove<K extends CollectionName>(name: K, id: string): boolean {
    const collection = this.collections[name];
    const current = collection.get(id);
    if (!current) return false;
    collection.delete(current);
    this.ops.push(['del', name, id]);
    this.undo?.push(() => collection.add(current));
    this.reach?.tenants.add(tenantOf(current));
    return true;
  }

  /**
   * Every collection's records as held, in insertion order: records, and lines of db.json not
   * yet parsed (RawRecords). Taken at one instant, so it is a consistent copy of the store
   * (records are replaced, never changed in place): what a snapshot (services/snapshots.ts) writes.
   */
  heldRecords(): Record<CollectionName, unknown[]> {
    const held = {} as Record<CollectionName, unknown[]>;
    for (const name of COLLECTION_NAMES) held[name] = this.collections[name].held();
    return held;
  }

  /**
   * Replaces every record with those of `records` (a snapshot's; RawRecords are parsed) in one
   * durable write: the same write as a reset, so a crash leaves the old store or the new one,
   * and processes sharing the store catch up with it through the change log. `file`, when the
   * records are those of a file in the snapshot layout, is one a backend may keep as it is
   * (file-store.ts) rather than write every record again.
   */
  replaceAll(records: SnapshotRecords, _file?: string): Promise<void> {
    return this.write(() => {
      this.clear();
      for (const name of COLLECTION_NAMES) {
        const list = records[name];
        for (const held of list === undefined ? [] : list instanceof RawBlock ? list.records() : list) {
          const record = held instanceof RawRecord ? held.parse<CollectionTypes[typeof name]>() : (held as CollectionTypes[typeof name]);
          this.insert(name, record);
        }
      }
    });
  }

  /**
   * Empties every collection and loads `records` as a file holds them, lines left unparsed
   * (RawBlocks, RawRecords) until first read, as a start does. Records nothing: a backend that
   * restores this way (file-store.ts) makes it durable by writing db.json from memory.
   */
  protected loadAll(records: SnapshotRecords): void {
    for (const name of COLLECTION_NAMES) {
      const collection = this.#collection(name);
      collection.clear();
      const list = records[name];
      if (list instanceof RawBlock) collection.loadBlock(list);
      else for (const record of list ?? []) collection.load(record as AnyRecord | RawRecord);
    }
  }

  /**
   * Empties every collection (POST /_emulator/reset). Only inside `write()`, so that the
   * emptying and whatever the same write inserts after it reach the backend together.
   */
  clear(): void {
    if (!this.#committedHooks) throw new Error('clear() is only valid inside store.write()');
    if (this.undo) {
      const held = COLLECTION_NAMES.map((name) => [name, [...this.collections[name].values()]] as const);
      this.undo.push(() => {
        for (const [name, records] of held) for (const record of records) this.#collection(name).add(record);
      });
    }
    for (const name of COLLECTION_NAMES) this.collections[name].clear();
    this.ops.push(['clear']);
    if (this.reach) this.reach.every = true;
  }

  /** Runs `mutate` as a write: its onCommitted hooks are gathered and answered with its result. */
  protected runMutation<T>(mutate: () => T): { result: T; hooks: Array<() => void> } {
    const hooks: Array<() => void> = [];
    this.#committedHooks = hooks;
    try {
      return { result: mutate(), hooks };
    } finally {
      this.#committedHooks = null;
    }
  }

  /**
   * Runs several writes' mutations in turn (one transaction of a backend that can refuse it),
   * gathering their operations and how to undo them; one that throws is taken back at once.
   */
  protected mutateAll(batch: ReadonlyArray<{ mutate: () => unknown }>, ops: StoreOp[], undo: Array<() => void>, outcomes: Outcome[]): void {
    for (const write of batch) {
      const mine: Array<() => void> = [];
      this.undo = mine;
      this.ops = [];
      try {
        const { result, hooks } = this.runMutation(write.mutate);
        outcomes.push({ ok: true, value: result, hooks });
        ops.push(...this.ops);
        undo.push(...mine);
      } catch (error) {
        for (const step of mine.reverse()) step();
        outcomes.push({ ok: false, error });
      } finally {
        this.undo = null;
        this.ops = [];
      }
    }
  }

  /** Applies a change another process made (idempotent: a change seen twice leaves the same records) and tells the listeners. */
  protected applyRemote(op: StoreOp): void {
    let change: RemoteChange;
    if (op[0] === 'clear') {
      for (const name of COLLECTION_NAMES) this.collections[name].clear();
      change = { op: 'clear' };
    } else if (op[0] === 'put') {
      const name = op[1] as CollectionName;
      const collection = this.#collection(name);
      const record = op[2] as AnyRecord;
      const current = collection.get(record.id);
      if (current) collection.replace(current, record);
      else collection.add(record);
      change = { op: 'put', name, record };
    } else {
      const name = op[1] as CollectionName;
      const collection = this.#collection(name);
      const current = collection.get(op[2]);
      if (current) collection.delete(current);
      change = { op: 'del', name, id: op[2] };
    }
    for (const listener of this.#remoteListeners) listener(change);
  }

  #collection(name: CollectionName): Collection<AnyRecord> {
    return this.collections[name] as unknown as Collection<AnyRecord>;
  }
}

/** The tenant a record belongs to: its tenantId, or its own id for a tenant. */
function tenantOf(record: AnyRecord): string {
  return record.tenantId ?? record.id;
}
