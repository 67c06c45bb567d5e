/**
 * Rate limits (DESIGN D16): a token bucket per API key, refilled at the tenant plan's rate
 * (or `--rate-limit N` for every key) and holding twice that as a burst. Over the limit:
 * 429 rate_limited with Retry-After. Every /v1 answer that passed auth carries
 * RateLimit-Limit (the burst), RateLimit-Remaining (whole tokens left) and RateLimit-Reset
 * (seconds until the bucket is full again; on a 429, until the next call may pass).
 * Buckets run on real time, not the emulator clock: they protect real throughput.
 * The same place counts the API call for usage and analytics (in memory, O(1)).
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { PLAN_LIMITS } from '../services/tenants.js';
import { usageMeter } from '../services/usage.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AppEnv } from './context.js';

/** A bucket holds this many seconds of its rate (D16: bursts of twice the rate). */
export const BURST_SECONDS = 2;

interface Bucket {
  rate: number;
  tokens: number;
  /** performance.now() of the last refill. */
  at: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (allowed) or holds one token (refused). */
  resetSeconds: number;
}

/** Token buckets by API key id. */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();

  /** Takes one token from `id`'s bucket at `rate` tokens per second, at real time `nowMs`. */
  take(id: string, rate: number, nowMs: number): Decision {
    const capacity = rate * BURST_SECONDS;
    let bucket = this.#buckets.get(id);
    if (!bucket) this.#buckets.set(id, (bucket = { rate, tokens: capacity, at: nowMs }));
    // A plan change takes effect at once: same tokens, new rate and ceiling.
    bucket.rate = rate;
    bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.at) / 1000) * rate);
    bucket.at = nowMs;
    const limit = Math.max(1, Math.floor(capacity));
    if (bucket.tokens < 1) {
      return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
    }
    bucket.tokens -= 1;
    return { allowed: true, limit, remaining: Math.floor(bucket.tokens), resetSeconds: Math.ceil((capacity - bucket.tokens) / rate) };
  }
}

function headersOf(decision: Decision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
}

/** Goes right after apiKeyAuth; requests it let through without a key (health, OpenAPI) pass untouched. */
export function rateLimit(rt: Runtime): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets();
  const meter = usageMeter(rt);
  // Not async: a request goes on without a promise of its own.
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
    const decision = buckets.take(key.id, rate, performance.now());
    const headers = headersOf(decision);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${rate} requests per second (bursts of ${decision.limit}) exceeded for this API key; retry after ${decision.resetSeconds} s`,
        [{ message: 'too many requests', limit: decision.limit, rate, retryAfter: decision.resetSeconds }],
        { ...headers, 'Retry-After': String(decision.resetSeconds) },
      );
    }
    meter.count(tenant);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return next();
  };
}
