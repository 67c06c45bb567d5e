/**
 * Writes each answered request into the request journal (services/request-journal.ts). The
 * control plane's own requests are left out: they are the test's questions, not the app's calls,
 * and polling the journal would otherwise fill it with itself.
 *
 * The journal keeps what the request already made, not copies: the body text body.ts read and
 * the answer (c.res), or, for an answer jsonAnswer() made, its text (an answer kept alive with
 * its Headers costs the collector more). Nothing is parsed, copied or stringified here; the
 * journal does that when it is read, after the answer was sent: a copy of the answer made here
 * (a clone) made @hono/node-server leave its fast path for every answer.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Runtime } from '../runtime.js';
import { requestJournal, type RawEntry } from '../services/request-journal.js';
import type { AppEnv } from './context.js';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The request body as body.ts cached it (Hono's bodyCache keeps promises); undefined when none was read. */
function sentText(c: Context<AppEnv>): Promise<string> | undefined {
  return (c.req.bodyCache as object as { text?: Promise<string> }).text;
}

export function journalRequests(rt: Runtime): MiddlewareHandler<AppEnv> {
  const journal = requestJournal(rt);
  const done = (c: Context<AppEnv>, entry: RawEntry): void => {
    const made = c.get('jsonAnswered');
    if (made !== undefined && made.answer === c.res) entry.answerText = made.text;
    else entry.answer = c.res;
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
    const result = next() as unknown;
    if (isThenable(result)) return Promise.resolve(result).then(() => done(c, entry));
    done(c, entry);
  };
  const handler = (c: Context<AppEnv>, next: Next): Promise<void> | void => {
    if (journal.capacity === 0 || c.req.path.startsWith('/_emulator')) return next();
    return record(c, next);
  };
  return handler as MiddlewareHandler<AppEnv>;
}
