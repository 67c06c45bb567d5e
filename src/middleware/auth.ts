/** `x-api-key` authentication (D3): sets the tenant and key on the context. */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Runtime } from '../runtime.js';
import { authenticate, presentedKeyHash } from '../services/api-keys.js';
import type { ApiKeyRecord, TenantRecord } from '../store/records.js';
import type { AppEnv } from './context.js';

/** Whether a path under /v1 needs no key: compared, not hashed as a set lookup would on every call. */
const keyExempt = (path: string): boolean => path === '/v1/healthz' || path === '/v1/readyz' || path === '/v1/openapi.json';

/** How many presented key values keep their last answer; the memo is emptied when full. */
const RECENT_KEYS = 256;

interface Accepted {
  tenant: TenantRecord;
  key: ApiKeyRecord;
  /** SHA-256 of the presented value, and the stored key's hash, as bytes. */
  presented: Buffer;
  stored: Buffer;
}

export function apiKeyAuth(rt: Runtime): MiddlewareHandler<AppEnv> {
  /**
   * The last answer of authenticate() per key value presented. A client sends the same key on
   * every call; authenticate() hashes it, looks the hash up and compares it in constant time,
   * a tenth of a GET's CPU. The store never changes a record in place (an update or a revoke
   * puts a new object in its place, a reset new ones everywhere), so while the key and tenant
   * records it answered are still the ones stored, it would answer them again.
   */
  const recent = new Map<string, Accepted>();
  const stillStored = (accepted: Accepted): boolean =>
    rt.store.get('apiKeys', accepted.key.id) === accepted.key && rt.store.get('tenants', accepted.tenant.id) === accepted.tenant;
  // The memo finds the candidate by value; as in authenticate(), the check itself is a
  // constant-time compare of the hashes (D3), a few dozen nanoseconds.
  const matches = (accepted: Accepted): boolean => stillStored(accepted) && timingSafeEqual(accepted.presented, accepted.stored);

  return (c, next) => {
    if (keyExempt(c.req.path)) return next();
    const value = c.req.header('x-api-key');
    let accepted = value === undefined ? undefined : recent.get(value);
    if (accepted === undefined || !matches(accepted)) {
      const { tenant, key } = authenticate(rt, value);
      accepted = { tenant, key, presented: Buffer.from(presentedKeyHash(value!.trim()), 'hex'), stored: Buffer.from(key.keyHash, 'hex') };
      if (recent.size >= RECENT_KEYS) recent.clear();
      recent.set(value!, accepted);
    }
    c.set('tenant', accepted.tenant);
    c.set('apiKey', accepted.key);
    return next();
  };
}
