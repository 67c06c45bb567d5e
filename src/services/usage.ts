/**
 * API-call accounting for usage, billing and analytics, kept off the request's critical
 * path: a request only bumps an in-memory counter per tenant and emulator-clock UTC day;
 * the counters are folded into the store's `usage` collection (one record per tenant and
 * day) at most every USAGE_FLUSH_MS, and when the emulator closes. Readers add what is
 * still pending, so their answers are exact; a crash loses at most the last few seconds.
 */
import type { Runtime } from '../runtime.js';
import type { TenantRecord } from '../store/records.js';

/** Real milliseconds between folds of the counters into the store. */
export const USAGE_FLUSH_MS = 5_000;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an epoch-millisecond time, in UTC. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The id of a usage record: `<tenantId>:<YYYY-MM-DD>`. */
export function usageId(tenantId: string, date: string): string {
  return `${tenantId}:${date}`;
}

interface Pending {
  tenantId: string;
  /** The tenant's createdAt when counted: a reset re-creates tenants, and older counts are void. */
  tenantCreatedAt: string;
  date: string;
  calls: number;
}

export class UsageMeter {
  readonly #rt: Runtime;
  #pending = new Map<string, Pending>();
  /**
   * The counter the last call went to, and its tenant record: a client calls with one key
   * again and again, and the same record object (the store replaces a record it changes)
   * on the same day counts into the same counter without building and hashing its id.
   */
  #last: { tenant: TenantRecord; entry: Pending } | null = null;
  #timer: NodeJS.Timeout | null = null;
  // The current emulator day, so that counting a call costs no date formatting.
  #dayStart = 0;
  #dayEnd = 0;
  #date = '';

  constructor(rt: Runtime) {
    this.#rt = rt;
  }

  /** Counts one API call of the tenant, now (emulator clock). O(1), no I/O. */
  count(tenant: TenantRecord): void {
    const now = this.#rt.clock.nowMs();
    if (now < this.#dayStart || now >= this.#dayEnd) {
      this.#dayStart = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
      this.#dayEnd = this.#dayStart + DAY_MS;
      this.#date = utcDate(this.#dayStart);
      this.#last = null;
    }
    const last = this.#last;
    if (last !== null && last.tenant === tenant) {
      last.entry.calls += 1;
    } else {
      const id = usageId(tenant.id, this.#date);
      let entry = this.#pending.get(id);
      if (!entry) this.#pending.set(id, (entry = { tenantId: tenant.id, tenantCreatedAt: tenant.createdAt, date: this.#date, calls: 1 }));
      else if (entry.tenantCreatedAt === tenant.createdAt) entry.calls += 1;
      else Object.assign(entry, { tenantCreatedAt: tenant.createdAt, calls: 1 });
      this.#last = { tenant, entry };
    }
    if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), USAGE_FLUSH_MS);
      this.#timer.unref();
    }
  }

  /** API calls of the tenant on each day from `fromDate` to `toDate` (inclusive), stored plus pending. */
  callsByDay(tenantId: string, fromDate: string, toDate: string): Map<string, number> {
    const days = new Map<string, number>();
    const add = (date: string, calls: number): void => {
      if (date >= fromDate && date <= toDate) days.set(date, (days.get(date) ?? 0) + calls);
    };
    for (const record of this.#rt.store.ofTenant('usage', tenantId)) add(record.date, record.apiCalls);
    for (const entry of this.#pending.values()) if (entry.tenantId === tenantId && this.#current(entry)) add(entry.date, entry.calls);
    return days;
  }

  /** Folds the pending counters into the store (one write). */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#last = null;
    const store = this.#rt.store;
    let applied = false;
    try {
      await store.write(() => {
        for (const [id, entry] of batch) {
          if (!this.#current(entry)) continue;
          const current = store.get('usage', id);
          if (current) store.update('usage', id, { apiCalls: current.apiCalls + entry.calls });
          else store.insert('usage', { id, tenantId: entry.tenantId, date: entry.date, apiCalls: entry.calls });
        }
        applied = true;
      });
    } catch {
      // Applied in memory but not written: the next write carries it. Not applied (the
      // store is closed): keep the counts for a later flush rather than lose them.
      if (!applied) for (const [id, entry] of batch) this.#merge(id, entry);
    }
  }

  #merge(id: string, entry: Pending): void {
    const current = this.#pending.get(id);
    if (current?.tenantCreatedAt === entry.tenantCreatedAt) current.calls += entry.calls;
    else if (!current) this.#pending.set(id, { ...entry });
  }

  /** Whether counts still belong to a tenant that exists (not to one a reset replaced). */
  #current(entry: Pending): boolean {
    return this.#rt.store.get('tenants', entry.tenantId)?.createdAt === entry.tenantCreatedAt;
  }
}

const meters = new WeakMap<Runtime, UsageMeter>();

/** The runtime's one usage meter. */
export function usageMeter(rt: Runtime): UsageMeter {
  let meter = meters.get(rt);
  if (!meter) meters.set(rt, (meter = new UsageMeter(rt)));
  return meter;
}
