/** The Hono environment every router shares: what middleware puts on the context. */
import type { Context } from 'hono';
import type { ApiKeyRecord, TenantRecord, UserRecord, UserSessionRecord } from '../store/records.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    tenant: TenantRecord;
    apiKey: ApiKeyRecord;
    /** Set by userSession() on routes that act for a signed-in user (D4). */
    session: UserSessionRecord;
    user: UserRecord;
  };
}

/**
 * A request header, by its lower-case name, as c.req.header() answers it. Served by
 * @hono/node-server, whose bindings (c.env.incoming) carry Node's request, it is read from the
 * headers Node has already parsed and checked (values trimmed, no CR, LF or NUL), without the
 * name check, lower-casing and Headers object that c.req.header() goes through on every call;
 * elsewhere (app.request() in tests) through c.req.header().
 */
export function requestHeader(c: Context, lowerName: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (incoming?.headers !== undefined) {
    const value = incoming.headers[lowerName];
    if (typeof value !== 'object') return value; // a string, or undefined when it was not sent
  }
  return c.req.header(lowerName);
}
