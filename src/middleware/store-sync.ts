/**
 * Brings the store up to date before a request is answered, when other processes share it
 * (PostgreSQL): a write that one process acknowledged is then seen by the request
 * that follows on any other. A store of one process has nothing to catch up with, and the
 * request goes on without a promise of its own. The health probes answer without it: the
 * process is alive, and /readyz says itself why the store cannot be used.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';

const PROBE = /\/(healthz|readyz)$/;

export function storeSync(rt: Runtime): MiddlewareHandler {
  return (c, next) => {
    const behind = rt.store.sync();
    if (behind === undefined) return next();
    if (PROBE.test(c.req.path)) {
      behind.catch(() => {});
      return next();
    }
    return behind.then(next, (error: Error) => {
      throw new ApiError('store_unavailable', `the store cannot be read: ${error.message}`);
    });
  };
}
