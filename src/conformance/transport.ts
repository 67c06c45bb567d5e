/**
 * The suite's way to the target: undici's fetch, wrapped so that a 429 waits as its
 * Retry-After says and tries again (rate limits are not failures), and so that a network
 * error or timeout becomes TargetUnreachable (exit 2), never a failed check. The wait is
 * shared: while one request sits out a Retry-After, every request of the run waits with it,
 * since the checks running at once draw on the same limit.
 */
import { loadUndici } from '../undici.js';
import type { FetchLike } from '../client/index.js';
import { TargetUnreachable } from './expect.js';

/** Longest Retry-After waited out (longer ones are answered as they are), and the most retries of one request. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const MAX_RATE_LIMIT_RETRIES = 8;

const baseFetch: FetchLike = async (url, init) => ((await loadUndici()).fetch as unknown as FetchLike)(url, init);

/** Seconds or an HTTP date (RFC 9110 10.2.3) → milliseconds to wait; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1_000;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - now);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One pause for every request that shares it: a 429 with Retry-After holds them all. */
export interface SharedBackoff {
  /** Resolves once no pause holds (at once when none does). */
  ready(): Promise<void>;
  /** Pauses every request for `ms` from now (or longer, if a pause already holds); true when no pause held. */
  pause(ms: number): boolean;
}

export function sharedBackoff(now: () => number = Date.now): SharedBackoff {
  let until = 0;
  return {
    async ready() {
      // The pause may grow while a request waits (another 429), so look again after each wait.
      for (let left = until - now(); left > 0; left = until - now()) await sleep(left);
    },
    pause(ms) {
      const at = now();
      const fresh = until <= at;
      until = Math.max(until, at + ms);
      return fresh;
    },
  };
}

export interface SuiteFetchOptions {
  /** Back off on 429 (default: a back-off of this fetch's own); false answers the 429 as it is (the rate-limit check). */
  backoff?: SharedBackoff | false;
  /** Told of every wait, for the console. */
  onBackoff?: (url: string, waitMs: number) => void;
  inner?: FetchLike;
  /** Real milliseconds each attempt may take (waits on Retry-After do not count). */
  timeoutMs: number;
}

export function suiteFetch(options: SuiteFetchOptions): FetchLike {
  const inner = options.inner ?? baseFetch;
  const backoff = options.backoff ?? sharedBackoff();
  return async (url, init) => {
    for (let attempt = 0; ; attempt += 1) {
      if (backoff !== false) await backoff.ready();
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(options.timeoutMs);
        response = await inner(url, { ...init, signal: init.signal ? AbortSignal.any([timeout, init.signal]) : timeout });
      } catch (error) {
        throw new TargetUnreachable({ method: init.method ?? 'GET', url }, error);
      }
      if (response.status !== 429 || backoff === false || attempt >= MAX_RATE_LIMIT_RETRIES) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      // A wait longer than a minute is a lock (MFA after wrong codes), not a rate limit to sit out.
      if (wait > MAX_RETRY_AFTER_MS) return response;
      await response.arrayBuffer();
      // Told once per pause, not once per request that joins or stretches it.
      if (backoff.pause(wait)) options.onBackoff?.(url, wait);
    }
  };
}
