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
import type { Context, MiddlewareHandler } from 'hono';
import { JsonText } from '../json-text.js';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';
import { newRequestId } from './request-id.js';

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type HeaderOptions = { append?: boolean };

export function responseHeaders(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
    c.set('requestId', requestId);
    const headers: Record<string, string> = { 'x-request-id': requestId };
    c.header = (name: string, value?: string, options?: HeaderOptions) => {
      const key = name.toLowerCase();
      if (value === undefined) delete headers[key];
      else headers[key] = options?.append && headers[key] !== undefined ? `${headers[key]}, ${value}` : value;
    };
    let built: Response | undefined;
    c.json = ((object: unknown, arg?: number | ResponseInit, extra?: Record<string, string>) => {
      const init = typeof arg === 'object' ? arg : undefined;
      const all: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, ...headers };
      // Names are lowercased so that `Retry-After` given here replaces, never doubles, a `retry-after` set before.
      for (const more of [init?.headers as Record<string, string> | undefined, extra]) {
        if (more) for (const name in more) all[name.toLowerCase()] = more[name]!;
      }
      const body = object instanceof JsonText ? object.text : JSON.stringify(object);
      built = new Response(body, { status: typeof arg === 'number' ? arg : (init?.status ?? 200), headers: all });
      return built;
    }) as Context['json'];
    await next();
    if (c.res !== built) {
      // HTML, redirects and empty answers come from Hono's other helpers: add ours to theirs.
      const target = c.res.headers;
      for (const name in headers) if (!target.has(name)) target.set(name, headers[name]!);
    }
    logger.request({ method: c.req.method, path: c.req.path, status: c.res.status, ms: performance.now() - started, requestId });
  };
}
