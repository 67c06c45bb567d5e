/**
 * The emulated DNS zone (docs/control-plane.md#emulated-dns): TXT records set through the
 * control plane, which custom-domain verification (D13) reads before it asks a resolver. They
 * belong to the outside world the emulator stands in for, not to the service's records, so a
 * reset or a snapshot's restore leaves them as they are. Where they are kept follows the store:
 * in the data dir (`dns.json`, written atomically at each change, so a restart finds them), in
 * the process's memory with `--in-memory`, and in the database with PostgreSQL, shared by every
 * process given its URL (store/postgres/shared.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from '../durable-file.js';
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { MAX_TXT_NAMES, normalTxtName, type TxtRecordView } from '../schemas/dns.js';
import { DNS_FILE } from '../store/data-dir.js';
import type { SharedTxtRecords, StoredTxtRecord } from '../store/store.js';

const dnsFileSchema = z.object({ txt: z.record(z.string(), z.object({ values: z.array(z.string()), updatedAt: z.string() })) });

/** The records of one process: in memory, and in the data dir when there is one. */
class LocalTxtRecords implements SharedTxtRecords {
  readonly #records: Map<string, StoredTxtRecord>;

  constructor(private readonly dataDir: string | null) {
    this.#records = new Map(Object.entries(dataDir === null ? {} : readDnsFile(dataDir)));
  }

  all(): Promise<Record<string, StoredTxtRecord>> {
    return Promise.resolve(Object.fromEntries(this.#records));
  }

  get(name: string): Promise<StoredTxtRecord | undefined> {
    return Promise.resolve(this.#records.get(name));
  }

  put(name: string, record: StoredTxtRecord, maxNames: number): Promise<boolean> {
    if (!this.#records.has(name) && this.#records.size >= maxNames) return Promise.resolve(false);
    const before = this.#records.get(name);
    this.#records.set(name, record);
    return this.#kept(() => (before === undefined ? this.#records.delete(name) : this.#records.set(name, before))).then(() => true);
  }

  remove(name: string): Promise<boolean> {
    const before = this.#records.get(name);
    if (before === undefined) return Promise.resolve(false);
    this.#records.delete(name);
    return this.#kept(() => this.#records.set(name, before)).then(() => true);
  }

  /** Writes the records to the data dir; a write that fails is taken back and answered as the store's. */
  #kept(undo: () => void): Promise<void> {
    if (this.dataDir === null) return Promise.resolve();
    try {
      writeDnsFile(this.dataDir, Object.fromEntries(this.#records));
      return Promise.resolve();
    } catch (error) {
      undo();
      return Promise.reject(new ApiError('store_unavailable', `the emulated DNS records cannot be written to the data dir: ${(error as Error).message}`));
    }
  }
}

/** The records kept in `dir`: none when it has no dns.json; a file svc cannot read is 503, saying what to do, until it is mended. */
function readDnsFile(dir: string): Record<string, StoredTxtRecord> {
  const path = join(dir, DNS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ApiError('store_unavailable', `${path} cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = dnsFileSchema.safeParse(json);
  if (!parsed.success) throw new ApiError('store_unavailable', `${path} does not hold svc's emulated DNS records; fix or delete it`);
  return parsed.data.txt;
}

/** Writes the records so that no crash leaves a torn file (durable-file.ts). */
function writeDnsFile(dir: string, txt: Record<string, StoredTxtRecord>): void {
  writeFileDurably(join(dir, DNS_FILE), `${JSON.stringify({ txt })}\n`);
}

const zones = new WeakMap<Runtime, SharedTxtRecords>();

/** The runtime's zone: the shared store's, or one of this process (read from the data dir on first use). */
function zoneOf(rt: Runtime): SharedTxtRecords {
  const shared = rt.store.sharedTxtRecords;
  if (shared) return shared;
  let zone = zones.get(rt);
  if (!zone) zones.set(rt, (zone = new LocalTxtRecords(rt.store.dataDir)));
  return zone;
}

const view = (name: string, record: StoredTxtRecord): TxtRecordView => ({ name, values: record.values, updatedAt: record.updatedAt });

/** Every emulated record, by name. */
export async function listTxtRecords(rt: Runtime): Promise<TxtRecordView[]> {
  const all = await zoneOf(rt).all();
  return Object.keys(all)
    .sort()
    .map((name) => view(name, all[name]!));
}

/** The emulated record at `name`, or undefined: then a look-up goes to the resolver. */
export async function emulatedTxt(rt: Runtime, name: string): Promise<TxtRecordView | undefined> {
  const key = normalTxtName(name);
  const record = await zoneOf(rt).get(key);
  return record === undefined ? undefined : view(key, record);
}

/** The emulated record at `name`, or 404. */
export async function getTxtRecord(rt: Runtime, name: string): Promise<TxtRecordView> {
  const record = await emulatedTxt(rt, name);
  if (record === undefined) throw notFound('emulated TXT record', normalTxtName(name));
  return record;
}

/** Sets the values `name` answers, replacing any it had; 409 when the zone is full. */
export async function setTxtRecord(rt: Runtime, name: string, values: string[]): Promise<TxtRecordView> {
  const key = normalTxtName(name);
  const record: StoredTxtRecord = { values: [...values], updatedAt: rt.clock.iso() };
  if (!(await zoneOf(rt).put(key, record, MAX_TXT_NAMES))) {
    throw new ApiError('conflict', `the emulated zone holds ${MAX_TXT_NAMES} names, its most; remove one with DELETE /_emulator/dns/txt/{name} first`);
  }
  return view(key, record);
}

/** Removes the record at `name`; 404 when there is none. */
export async function removeTxtRecord(rt: Runtime, name: string): Promise<{ name: string; deleted: true }> {
  const key = normalTxtName(name);
  if (!(await zoneOf(rt).remove(key))) throw notFound('emulated TXT record', key);
  return { name: key, deleted: true };
}
