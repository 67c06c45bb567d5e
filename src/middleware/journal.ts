/**
 * Writes each answered request into the request journal (services/request-journal.ts). The
 * control plane's own requests are left out: they are the test's questions, not the app's calls,
 * and polling the journal would otherwise fill it with itself.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Runtime } from '../runtime.js';
import { journalBody, requestJournal, type JournalEntry } from '../services/request-journal.js';
import type { AppEnv } from './context.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json/i;

/**
 * Requests being journalled, by their Request. The first request of an area not yet loaded
 * runs through the app twice (app.ts); the second run is journalled by the first, and only
 * tells it the tenant its API key resolved to, which the first run's context never gets.
 */
const underWay = new WeakMap<Request, Seen>();

/** What the second run of a request saw that the first run's context does not hold. */
interface Seen {
  tenantId: string | null;
  sent: Promise<string | undefined> | undefined;
}

/** The request body as body.ts cached it (Hono's bodyCache); undefined when none was read. */
async function sentText(c: Context<AppEnv>): Promise<string | undefined> {
  const cached = (c.req.bodyCache as object as { text?: Promise<string> }).text;
  return cached === undefined ? undefined : cached.catch(() => undefined);
}

/** The answer's body, read from a copy so the answer itself is sent untouched; only JSON is read. */
async function answeredText(response: Response): Promise<string | undefined> {
  if (response.body === null || !JSON_TYPE.test(response.headers.get('content-type') ?? '')) return undefined;
  return response.clone().text();
}

/** The second run of a request: tells the first what only its context holds. */
async function tell(c: Context<AppEnv>, next: Next, outer: Seen): Promise<void> {
  await next();
  outer.tenantId = c.get('tenant')?.id ?? outer.tenantId;
  outer.sent = sentText(c);
}

export function journalRequests(rt: Runtime): MiddlewareHandler<AppEnv> {
  const journal = requestJournal(rt);
  const record = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    const seq = journal.nextSeq();
    const started = performance.now();
    const time = new Date().toISOString();
    const emulatedTime = rt.clock.iso();
    const state: Seen = { tenantId: null, sent: undefined };
    underWay.set(c.req.raw, state);
    try {
      await next();
    } finally {
      underWay.delete(c.req.raw);
    }
    const [sent, answered] = await Promise.all([state.sent ?? sentText(c), answeredText(c.res).catch(() => undefined)]);
    const url = new URL(c.req.url);
    const entry: JournalEntry = {
      seq,
      time,
      emulatedTime,
      tenantId: c.get('tenant')?.id ?? state.tenantId,
      method: c.req.method,
      path: url.pathname,
      query: url.search,
      status: c.res.status,
      requestId: c.get('requestId'),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      requestBody: journalBody(sent),
      responseBody: journalBody(answered),
    };
    journal.add(entry);
  };
  return (c, next) => {
    if (journal.capacity === 0 || c.req.path.startsWith('/_emulator')) return next();
    const outer = underWay.get(c.req.raw);
    if (outer === undefined) return record(c, next);
    return tell(c, next, outer);
  };
}
