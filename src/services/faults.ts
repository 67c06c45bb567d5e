/**
 * Fault injection (D11): rules that make the next `count` requests matching a method
 * and a path answer an error status, or wait, or both; a fault that names a tenant matches only
 * the requests that tenant's API key authenticates. With the file store they live in
 * memory only: a fault is a moment of a test, not data, so a restart forgets them. With a
 * store several processes share (PostgreSQL), they live in it, so that a fault set through one
 * process counts the requests every process answers.
 */
import { parseDuration } from '../duration.js';
import { notFound } from '../errors.js';
import { randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { FaultInput } from '../schemas/control.js';

/** What the control plane answers about a fault. */
export interface FaultView {
  id: string;
  /** Upper-case method, or null for any. */
  method: string | null;
  /** The path as given, relative to /v1. */
  path: string;
  status: number | null;
  delay: string | null;
  count: number;
  /** Matching requests it will still hit. */
  remaining: number;
  /** The tenant whose requests alone it matches, or null for every request. */
  tenant: string | null;
  createdAt: string;
}

interface Fault extends FaultView {
  pattern: RegExp;
  delayMs: number;
}

/** The fault a request hit: what to answer and how long to wait first. */
export interface FaultHit {
  id: string;
  status: number | null;
  delayMs: number;
}

/**
 * `/users/:id` (or `/users/{id}`) matches one segment per parameter; `*` matches within a
 * segment, and a trailing `/*` matches the path itself and everything below it.
 */
export function pathPattern(path: string): RegExp {
  const normal = relativePath(path);
  const tail = normal.endsWith('/*') ? '(?:/.*)?' : '';
  const head = tail ? normal.slice(0, -2) : normal;
  const body = head
    .split('/')
    .map((segment) => (/^(:\w+|\{\w+\})$/.test(segment) ? '[^/]+' : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')))
    .join('/');
  return new RegExp(`^${body}${tail}$`);
}

/** A path relative to /v1, without a trailing slash: `/v1/users/` → `/users`. */
export function relativePath(path: string): string {
  const withoutBase = path === '/v1' ? '/' : path.startsWith('/v1/') ? path.slice(3) : path;
  return withoutBase.length > 1 && withoutBase.endsWith('/') ? withoutBase.slice(0, -1) : withoutBase;
}

/** The faults of one runtime, first added first matched. */
export class FaultInjector {
  readonly #faults: Fault[] = [];

  constructor(private readonly rt: Runtime) {}

  /** Stores a fault; 404 when it names a tenant the store does not hold. */
  async add(input: FaultInput): Promise<FaultView> {
    if (input.tenant !== undefined && this.rt.store.get('tenants', input.tenant) === undefined) throw notFound('tenant', input.tenant);
    const delayMs = input.delay === undefined ? 0 : (parseDuration(input.delay) ?? 0);
    // Neither status nor delay would be a fault that does nothing: it means "fail".
    const status = input.status ?? (delayMs > 0 ? null : 500);
    const fault: Fault = {
      id: `flt_${randomBase62(12)}`,
      method: input.method ?? null,
      path: relativePath(input.path),
      status,
      delay: input.delay ?? null,
      count: input.count,
      remaining: input.count,
      tenant: input.tenant ?? null,
      createdAt: this.rt.clock.iso(),
      pattern: pathPattern(input.path),
      delayMs,
    };
    const shared = this.rt.store.sharedFaults;
    if (shared) await shared.add({ ...view(fault), pattern: fault.pattern.source, delayMs });
    else this.#faults.push(fault);
    return view(fault);
  }

  /** Removes every fault; answers how many there were. */
  async clear(): Promise<number> {
    const shared = this.rt.store.sharedFaults;
    return shared ? shared.clear() : this.#faults.splice(0).length;
  }

  async list(): Promise<FaultView[]> {
    const shared = this.rt.store.sharedFaults;
    return shared ? (await shared.list()).map(view) : this.#faults.map(view);
  }

  /** Whether no fault is set: then no request needs its path looked at. */
  get none(): boolean {
    const shared = this.rt.store.sharedFaults;
    return shared ? !shared.active : this.#faults.length === 0;
  }

  /**
   * Counts a request against the first fault it matches: synchronously in memory, atomically
   * in a shared store (so `count` is exact either way). Nothing to ask when no fault is set.
   * `tenantOf` finds the tenant the request acts for (null: none); it is asked only when a fault
   * that names a tenant could match, so no other request has its key looked up here.
   */
  take(method: string, path: string, tenantOf: () => string | null): FaultHit | undefined | Promise<FaultHit | undefined> {
    if (this.none) return undefined;
    const relative = relativePath(path);
    const shared = this.rt.store.sharedFaults;
    if (shared) {
      return shared
        .take(method, relative, shared.scoped ? tenantOf() : null)
        .then((fault) => (fault ? { id: fault.id, status: fault.status, delayMs: fault.delayMs } : undefined));
    }
    let tenant: string | null | undefined;
    const ofRequest = (): string | null => (tenant === undefined ? (tenant = tenantOf()) : tenant);
    const index = this.#faults.findIndex(
      (fault) => (fault.method === null || fault.method === method) && fault.pattern.test(relative) && (fault.tenant === null || fault.tenant === ofRequest()),
    );
    if (index < 0) return undefined;
    const fault = this.#faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.#faults.splice(index, 1);
    return { id: fault.id, status: fault.status, delayMs: fault.delayMs };
  }
}

function view(fault: FaultView & { pattern: unknown; delayMs: number }): FaultView {
  const { pattern: _pattern, delayMs: _delayMs, ...rest } = fault;
  return { ...rest };
}

const injectors = new WeakMap<Runtime, FaultInjector>();

/** The runtime's one fault injector. */
export function faultInjector(rt: Runtime): FaultInjector {
  let injector = injectors.get(rt);
  if (!injector) injectors.set(rt, (injector = new FaultInjector(rt)));
  return injector;
}
