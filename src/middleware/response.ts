/**
 * The first middleware of every request: the request id (`x-request-id`, the client's if it is
 * sane, else a new one), the answer's headers, and the request log line.
 *
 * It replaces the context's c.header() and c.json() for the request. Hono's own build a WHATWG
 * Headers, which @hono/node-server copies and sorts on every answer; here every header set for
 * the request goes into one plain object that node-server writes as it is, and c.json() sends
 * a JsonText's prepared text as it is (json-text.ts). Answers made by Hono's other helpers
 * (HTML, redirects, empty ones) get the same headers added once they are made. Appended values
 * are joined with ", " (no route sets cookies, which could not be joined so).
 */
import type { Context, Input, MiddlewareHandler, Next } from 'hono';
import { JsonText } from '../json-text.js';
import type { Logger } from '../logger.js';
import { requestHeader, type AppEnv } from './context.js';
import { newRequestId } from './request-id.js';

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type HeaderOptions = { append?: boolean };

/** Names are lowercased so that `Retry-After` given to c.json() replaces, never doubles, a `retry-after` set before. */
function addLowercased(all: Record<string, string>, more: Record<string, string>): void {
  for (const name in more) all[name.toLowerCase()] = more[name]!;
}

/**
 * One request's answer: the headers set for it and the Response its c.json() built. The
 * functions that stand in for c.header() and c.json() are made here, where they see this
 * object and not the context: a closure stored on the context that also held the context
 * made every request's objects outlive the young generation (measured: five times the time
 * in garbage collection on GET /v1/users/:id under load).
 */
class Answer {
  readonly headers: Record<string, string>;
  built: Response | undefined = undefined;
  readonly header: (name: string, value?: string, options?: HeaderOptions) => void;
  readonly json: Context['json'];

  constructor(requestId: string) {
    const headers: Record<string, string> = { 'x-request-id': requestId };
    this.headers = headers;
    this.header = (name, value, options) => {
      const key = name.toLowerCase();
      if (value === undefined) delete headers[key];
      else headers[key] = options?.append && headers[key] !== undefined ? `${headers[key]}, ${value}` : value;
    };
    this.json = ((object: unknown, arg?: number | ResponseInit, extra?: Record<string, string>) => {
      const init = typeof arg === 'object' ? arg : undefined;
      const all: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, ...headers };
      const given = init?.headers as Record<string, string> | undefined;
      if (given !== undefined) addLowercased(all, given);
      if (extra !== undefined) addLowercased(all, extra);
      const body = object instanceof JsonText ? object.text : JSON.stringify(object);
      return (this.built = new Response(body, { status: typeof arg === 'number' ? arg : (init?.status ?? 200), headers: all }));
    }) as Context['json'];
  }
}

/** Once the answer is made: our headers onto an answer made by another of Hono's helpers, and the log line (no logger when quiet). */
function finish(c: Context<AppEnv>, answer: Answer, logger: Logger | null, started: number): void {
  if (c.res !== answer.built) {
    // HTML, redirects and empty answers come from Hono's other helpers: add ours to theirs.
    const target = c.res.headers;
    for (const name in answer.headers) if (!target.has(name)) target.set(name, answer.headers[name]!);
  }
  if (logger !== null) {
    logger.request({
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: performance.now() - started,
      requestId: answer.headers['x-request-id']!,
    });
  }
}

/**
 * Requests being run through the app a second time as part of their first run's answer
 * (answerByRunningAgain), each with the context of that first run; and how many there are,
 * so that every other request pays one compare rather than a lookup.
 */
const runningAgain = new WeakMap<Request, Context<AppEnv>>();
let runningAgainCount = 0;

/**
 * Answers the request by running it through `fetch` (the app's) once more, as app.ts does for
 * the first request of an area it has just loaded. The second run keeps the first's request id
 * and the headers set so far and writes into the same answer; the first run logs the request,
 * once, when it ends.
 */
export async function answerByRunningAgain<P extends string, I extends Input>(
  c: Context<AppEnv, P, I>,
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
): Promise<Response> {
  runningAgain.set(c.req.raw, c as Context<AppEnv>);
  runningAgainCount++;
  try {
    return await fetch(c.req.raw, c.env);
  } finally {
    runningAgainCount--;
    runningAgain.delete(c.req.raw);
  }
}

export function responseHeaders(logger: Logger): MiddlewareHandler<AppEnv> {
  // Requests are timed and described only for the log line: with --quiet there is none.
  const requestLog = logger.logsRequests === false ? null : logger;
  const handler = (c: Context<AppEnv>, next: Next): Promise<void> | undefined => {
    const first = runningAgainCount === 0 ? undefined : runningAgain.get(c.req.raw);
    if (first !== undefined) {
      c.set('requestId', first.get('requestId'));
      c.header = first.header;
      c.json = first.json;
      return next();
    }
    const started = requestLog === null ? 0 : performance.now();
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
    c.set('requestId', requestId);
    const answer = new Answer(requestId);
    c.header = answer.header;
    c.json = answer.json;
    // Not async: when the rest of the chain answers at once (middleware/chain-router.ts), so does this.
    const done: unknown = next();
    if (done instanceof Promise) return done.then(() => finish(c, answer, requestLog, started));
    finish(c, answer, requestLog, started);
    return undefined;
  };
  return handler as MiddlewareHandler<AppEnv>;
}
