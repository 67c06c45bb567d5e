/**
 * The first middleware of every request: the request id (`x-request-id`, the client's if it is
 * sane, else a new one), the JSON content type with its charset, and the request log line.
 *
 * The id is set with c.header() before the rest of the chain runs, so every answer Hono's
 * helpers make (c.json(), c.html(), c.body(), redirects, the error and not-found handlers)
 * carries it.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';
import { newRequestId } from './request-id.js';

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
/** What every JSON answer says it is (docs/design.md); Hono's c.json() says `application/json`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function responseHeaders(logger: Logger): MiddlewareHandler<AppEnv> {
  // Requests are timed and described only for the log line: with --quiet there is none.
  const requestLog = logger.logsRequests === false ? null : logger;
  const finish = (c: Context<AppEnv>, requestId: string, started: number): void => {
    const headers = c.res.headers;
    if (headers.get('content-type') === 'application/json') headers.set('content-type', JSON_CONTENT_TYPE);
    // An answer a handler built itself, not through Hono's helpers, lacks the id set before.
    if (!headers.has('x-request-id')) c.header('x-request-id', requestId);
    requestLog?.request({ method: c.req.method, path: c.req.path, status: c.res.status, ms: performance.now() - started, requestId });
  };
  // Not async: when the rest of the chain answers at once (routing/chain-router.ts), so does this.
  const handler = (c: Context<AppEnv>, next: Next): Promise<void> | undefined => {
    const started = requestLog === null ? 0 : performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    const done: unknown = next();
    if (done instanceof Promise) return done.then(() => finish(c, requestId, started));
    finish(c, requestId, started);
    return undefined;
  };
  return handler as MiddlewareHandler<AppEnv>;
}
