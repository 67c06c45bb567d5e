/**
 * Writes each answered request into the request journal (services/request-journal.ts). The
 * control plane's own requests are left out: they are the test's questions, not the app's calls,
 * and polling the journal would otherwise fill it with itself.
 *
 * The journal keeps what the request already made, not copies: the body text body.ts read and
 * the value the route gave c.json(). Nothing is parsed, copied or stringified here; the journal
 * does that when it is read. Reading the answer back from the Response instead (a clone) made
 * @hono/node-server leave its fast path for every answer.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Runtime } from '../runtime.js';
import { requestJournal, type RawEntry } from '../services/request-journal.js';
import type { AppEnv } from './context.js';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Requests being journalled, by their Request. The first request of an area not yet loaded
 * runs through the app twice (app.ts); the second run is journalled by the first, and only
 * tells it what the first run's context never gets: the tenant and the bodies.
 */
const underWay = new WeakMap<Request, RawEntry>();

/** The request body as body.ts cached it (Hono's bodyCache keeps promises); undefined when none was read. */
function sentText(c: Context<AppEnv>): Promise<string> | undefined {
  return (c.req.bodyCache as object as { text?: Promise<string> }).text;
}

/** Makes c.json() note what it answers, for this request's context only (as response.ts gives it its c.json). */
function noteAnswers(c: Context<AppEnv>, entry: RawEntry): void {
  const json = c.json;
  c.json = ((object: unknown, ...rest: unknown[]) => {
    entry.answered = object;
    return (json as (...args: unknown[]) => Response)(object, ...rest);
  }) as Context['json'];
}

export function journalRequests(rt: Runtime): MiddlewareHandler<AppEnv> {
  const journal = requestJournal(rt);
  const done = (c: Context<AppEnv>, entry: RawEntry): void => {
    underWay.delete(c.req.raw);
    entry.tenantId = c.get('tenant')?.id ?? entry.tenantId;
    entry.sent ??= sentText(c);
    entry.status = c.res.status;
    entry.endedAt = performance.now();
    journal.add(entry);
  };
  const record = (c: Context<AppEnv>, next: Next): Promise<void> | void => {
    const url = c.req.url;
    const query = url.indexOf('?');
    const entry = journal.begin(c.req.method, c.req.path, query === -1 ? '' : url.slice(query), c.get('requestId'), rt.clock.nowMs());
    underWay.set(c.req.raw, entry);
    noteAnswers(c, entry);
    const result = next() as unknown;
    if (isThenable(result)) return Promise.resolve(result).then(() => done(c, entry));
    done(c, entry);
  };
  // The second run of a request: tells the first what only its context holds.
  const tell = (c: Context<AppEnv>, next: Next, entry: RawEntry): Promise<void> | void => {
    noteAnswers(c, entry);
    const result = next() as unknown;
    const told = (): void => {
      entry.tenantId = c.get('tenant')?.id ?? entry.tenantId;
      entry.sent = sentText(c);
    };
    if (isThenable(result)) return Promise.resolve(result).then(told);
    told();
  };
  // Not async: a request whose handlers answer at once is journalled without a promise of its own (chain-router.ts).
  const handler = (c: Context<AppEnv>, next: Next): Promise<void> | void => {
    if (journal.capacity === 0 || c.req.path.startsWith('/_emulator')) return next();
    const outer = underWay.get(c.req.raw);
    return outer === undefined ? record(c, next) : tell(c, next, outer);
  };
  return handler as MiddlewareHandler<AppEnv>;
}
