/**
 * Injected faults (D11), mounted before every /v1 route and before the API key check:
 * a request that matches a fault waits its delay, then answers its status in the error
 * envelope (or, for a delay-only fault, goes on as usual). The answer carries `x-svc-fault`
 * with the fault's id so that nobody mistakes it for a real failure when reading logs. A fault
 * that names a tenant matches only a request whose `x-api-key` authenticates as that tenant,
 * found by the API key check's own look-up; the key is looked at only for such a fault.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorCode } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { FAULT_CODES } from '../schemas/control.js';
import { authenticate } from '../services/api-keys.js';
import { faultInjector, type FaultHit } from '../services/faults.js';

export function injectFaults(rt: Runtime, basePath: string): MiddlewareHandler {
  const faults = faultInjector(rt);
  // Not async: a request that hits no fault (nearly all) goes on without a promise of its own.
  return (c, next) => {
    if (faults.none) return next();
    const path = c.req.path.slice(basePath.length) || '/';
    const hit = faults.take(c.req.method, path, () => keyTenant(rt, c.req.header('x-api-key')));
    if (hit instanceof Promise) return hit.then((found) => (found ? answerFault(c, next, found, path) : next()));
    return hit ? answerFault(c, next, hit, path) : next();
  };
}

/**
 * The tenant a request's API key acts for, as the key check finds it (authenticate()), or null
 * when it sends none or one the key check refuses. The user and guest session tokens the API
 * takes belong to the key's tenant, so the key alone says whose request it is.
 */
function keyTenant(rt: Runtime, value: string | undefined): string | null {
  if (value === undefined) return null;
  try {
    return authenticate(rt, value).tenant.id;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The fault's answer: its delay first, then its status in the error envelope (or, delay only, the usual answer). */
async function answerFault(c: Context, next: Next, hit: FaultHit, path: string): Promise<Response | void> {
  c.header('x-svc-fault', hit.id);
  if (hit.delayMs > 0) await sleep(hit.delayMs);
  if (hit.status === null) return next();
  const code: ErrorCode = (FAULT_CODES as Record<number, ErrorCode>)[hit.status] ?? 'internal_error';
  const error = new ApiError(
    code,
    `Injected fault ${hit.id}: the emulator was told to answer ${hit.status} to ${c.req.method} ${path} (see GET /_emulator/faults)`,
  );
  if (hit.status === 429) c.header('Retry-After', '1');
  return c.json(error.toBody(), hit.status as ContentfulStatusCode);
}
