/**
 * Token buckets for rate limits (D16), in memory: the buckets of a store that one
 * process holds (store.ts). A bucket holds twice its rate as a burst and refills on real time.
 * A shared store keeps the same buckets in its database (postgres/shared.ts).
 */

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
