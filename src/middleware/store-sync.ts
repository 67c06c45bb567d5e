/**
 * Brings the store up to date before a request is answered, when other processes share it
 * (PostgreSQL): a write that one process acknowledged is then seen by the request
 * that follows on any other. A store of one process has nothing to catch up with, and the
 * request goes on without a promise of its own. The health probes wait for the catch-up only
 * so long (PROBE_CATCH_UP_MS): the process is alive whatever the store does, and /readyz says
 * itself why the store cannot be used.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';

const PROBE = /\/(healthz|readyz)$/;

/**
 * How long a health probe waits for the store to catch up before it answers anyway: long
 * enough for a store that answers (a catch-up takes a few milliseconds), so that a fault
 * another process injected on the probe's path is met here too, as by any request; short
 * enough that a store that does not answer (paused, cut off) never holds up the answer that
 * says the process is alive.
 */
export const PROBE_CATCH_UP_MS = 100;

/** Settles when `work` does, or after `ms`, whichever comes first; never rejects. */
function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    waited,
  ]).finally(() => clearTimeout(timer));
}

export function storeSync(rt: Runtime): MiddlewareHandler {
  return (c, next) => {
    const behind = rt.store.sync();
    if (behind === undefined) return next();
    if (PROBE.test(c.req.path)) return atMost(behind, PROBE_CATCH_UP_MS).then(next);
    return behind.then(next, (error: Error) => {
      throw new ApiError('store_unavailable', `the store cannot be read: ${error.message}`);
    });
  };
}
