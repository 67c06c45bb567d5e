/**
 * Rate limits (D16): a token bucket per API key, refilled at the tenant plan's rate
 * (or `--rate-limit N` for every key) and holding twice that as a burst. Over the limit:
 * 429 rate_limited with Retry-After. Every /v1 answer that passed auth carries
 * RateLimit-Limit (the burst), RateLimit-Remaining (whole tokens left) and RateLimit-Reset
 * (seconds until the bucket is full again; on a 429, until the next call may pass).
 * Buckets run on real time, not the emulator clock: they protect real throughput.
 * The same place counts the API call for usage and analytics (in memory, O(1)).
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { PLAN_LIMITS } from '../services/tenant.js';
import { usageMeter, type UsageMeter } from '../services/usage.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { Decision } from '../store/token-buckets.js';
import type { AppEnv } from './context.js';

export { BURST_SECONDS, TokenBuckets, type Decision } from '../store/token-buckets.js';

function headersOf(decision: Decision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
}

/** Lets the request on with the RateLimit headers and counts it, or refuses it with 429 and Retry-After. */
function admit(c: Context<AppEnv>, next: Next, meter: UsageMeter, rate: number, decision: Decision): Promise<void> {
  const headers = headersOf(decision);
  if (!decision.allowed) {
    throw new ApiError(
      'rate_limited',
      `Rate limit of ${rate} requests per second (bursts of ${decision.limit}) exceeded for this API key; retry after ${decision.resetSeconds} s`,
      [{ message: 'too many requests', limit: decision.limit, rate, retryAfter: decision.resetSeconds }],
      { ...headers, 'Retry-After': String(decision.resetSeconds) },
    );
  }
  meter.count(c.get('tenant'));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return next();
}

/**
 * Goes right after apiKeyAuth; requests it let through without a key (health, OpenAPI) pass
 * untouched. The buckets are the store's: in memory for one process, in the database when
 * several share it (so that three processes do not grant three times the rate).
 */
export function rateLimit(rt: Runtime): MiddlewareHandler<AppEnv> {
  const meter = usageMeter(rt);
  // Not async: a request goes on without a promise of its own when the buckets are in memory.
  return (c, next) => {
    const key = c.get('apiKey') as ApiKeyRecord | undefined;
    if (key === undefined) return next();
    const tenant = c.get('tenant');
    const setting = rt.options.rateLimit;
    if (setting === 'off') {
      meter.count(tenant);
      return next();
    }
    const rate = setting ?? PLAN_LIMITS[tenant.plan].requestsPerSecond;
    const decision = rt.store.takeToken(key.id, rate);
    // No closure per request on the common path: the buckets in memory answer at once.
    return decision instanceof Promise ? decision.then((taken) => admit(c, next, meter, rate, taken)) : admit(c, next, meter, rate, decision);
  };
}
