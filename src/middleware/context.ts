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
    /** Headers every answer to this request carries (see setResponseHeader). */
    responseHeaders: Record<string, string>;
  };
}

/**
 * Adds a header to whatever this request answers, error or not. Use it rather than
 * `c.header()`: the headers stay a plain object that @hono/node-server writes as it is,
 * where `c.header()` builds a WHATWG Headers that costs a sorted copy on every answer.
 */
export function setResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  c.get('responseHeaders')[name.toLowerCase()] = value;
}
