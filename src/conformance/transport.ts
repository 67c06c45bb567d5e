/**
 * The suite's way to the target: undici's request through the suite's agent (connections.ts),
 * wrapped so that a 429 waits as its Retry-After says and tries again (rate limits are not
 * failures), so that a request that failed in transport is tried again where that is safe,
 * and so that a transport failure after that becomes TargetUnreachable (exit 2), never a failed
 * check. The wait is shared: while one request sits out a Retry-After, every request of the run
 * waits with it, since the checks running at once draw on the same limit.
 *
 * What is tried again, once: a request none of which was written (nothing reached the target);
 * a read (GET, HEAD), after READ_RETRY_MS; a write only when reading back shows it did not take
 * effect — a POST that carries a run-named field (`conf-<run>-…`) is looked for by that field in
 * the listing of the collection it was posted to. Any other write is never sent twice: a
 * failure names the request, its connection and what was tried (docs/conformance.md#transport).
 */
import { loadUndici } from '../undici.js';
import type { FetchAnswer, FetchLike } from '../client/index.js';
import { parseJson } from '../client/transport.js';
import { describeConnection, tracedDispatcher, type RequestTrace } from './connections.js';
import { describeNetworkError as describeCause, TargetUnreachable } from './expect.js';
import { currentCheck } from './scope.js';

/** Longest Retry-After waited out (longer ones are answered as they are), and the most retries of one request. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const MAX_RATE_LIMIT_RETRIES = 8;

/** How long a read that failed in transport waits before it is tried again. */
export const READ_RETRY_MS = 250;
/** Pages of a collection (of MAX_PAGE) read back to learn whether a POST whose answer was lost took effect. */
const READ_BACK_PAGES = 3;
const READ_BACK_PAGE_SIZE = 100;

/**
 * One request through the suite's agent, its way traced, with undici's `request` rather than its
 * `fetch`: the suite reads every answer whole, and fetch's streams, copies and Response were
 * most of the client's time on loopback (docs/conformance.md#transport). The answer is read to
 * its end and handed on as its status, headers and text. Unlike fetch, nothing is added to what
 * the check sends (no Content-Type for a raw body, no Accept-Encoding) and a redirect is
 * answered as it is.
 */
const tracedRequest = async (url: string, init: RequestInit, trace: RequestTrace): Promise<FetchAnswer> => {
  const undici = await loadUndici();
  const dispatcher = await tracedDispatcher(trace);
  const answer = await undici.request(url, {
    dispatcher,
    method: init.method ?? 'GET',
    headers: plainHeaders(init.headers),
    body: (init.body ?? null) as string | Uint8Array | null,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await answer.body.text();
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.append(name, value);
  }
  return { status: answer.statusCode, headers, text: () => Promise.resolve(text) };
};

/** The request's headers as the plain record undici's `request` takes. */
function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(new Headers(headers));
  return headers as Record<string, string>;
}

/** The field of a JSON body whose value carries the run's id (`conf-<run>-…`), by which the record can be found again. */
export function runNamedField(body: unknown, runId: string): { field: string; value: string } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  for (const [field, value] of Object.entries(body)) if (typeof value === 'string' && value.includes(`conf-${runId}-`)) return { field, value };
  return undefined;
}

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
  /** Replaces undici (tests run the suite in-process): its requests are not traced, so a write it loses is never tried again. */
  inner?: FetchLike;
  /** Real milliseconds each attempt may take (waits on Retry-After do not count). */
  timeoutMs: number;
  /** The run's id: a POST whose answer was lost is read back by the field that carries it. */
  runId?: string;
  /** Told of every answer (each 429 waited out too), for the run's coverage. */
  onAnswer?: (method: string, url: string, status: number) => void;
}

interface Attempt {
  response?: FetchAnswer;
  error?: unknown;
  trace: RequestTrace;
}

const isAbort = (error: unknown): boolean => {
  const { name } = error as { name?: unknown };
  return name === 'TimeoutError' || name === 'AbortError';
};

export function suiteFetch(options: SuiteFetchOptions): FetchLike {
  const backoff = options.backoff ?? sharedBackoff();
  const attempt = async (url: string, init: RequestInit): Promise<Attempt> => {
    // Without undici (in-process) nothing says how far a request got: count it written.
    const trace: RequestTrace = { written: options.inner !== undefined, answered: false };
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
      const response = options.inner ? await options.inner(url, { ...init, signal }) : await tracedRequest(url, { ...init, signal }, trace);
      return { response, trace };
    } catch (error) {
      return { error, trace };
    }
  };

  /** Whether the POST of `init` took effect, by its run-named field in the collection's listing; undefined when that cannot be told. */
  const readBack = async (url: string, init: RequestInit): Promise<boolean | undefined> => {
    if (options.runId === undefined || typeof init.body !== 'string') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(init.body) as unknown;
    } catch {
      return undefined;
    }
    const named = runNamedField(body, options.runId);
    if (named === undefined) return undefined;
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).filter(([name]) => name.toLowerCase() !== 'content-type'),
    );
    for (let page = 1; page <= READ_BACK_PAGES; page += 1) {
      const listing = new URL(url);
      listing.searchParams.set('page', String(page));
      listing.searchParams.set('page_size', String(READ_BACK_PAGE_SIZE));
      const { response } = await attempt(listing.toString(), { method: 'GET', headers });
      if (response === undefined || response.status !== 200) return undefined;
      const items = (parseJson(await response.text()) as { data?: unknown } | undefined)?.data;
      if (!Array.isArray(items)) return undefined;
      if (items.some((item) => (item as Record<string, unknown> | null)?.[named.field] === named.value)) return true;
      if (items.length < READ_BACK_PAGE_SIZE) return false;
    }
    return undefined;
  };

  /** One request, tried again once where that is safe (the module's header). */
  const deliver = async (url: string, init: RequestInit): Promise<FetchAnswer> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const request = { method, url };
    const first = await attempt(url, init);
    if (first.response !== undefined) return first.response;
    // A timeout is the target taking too long, and a caller's abort its own: neither is tried again.
    if (isAbort(first.error)) throw new TargetUnreachable(request, first.error, describeConnection(first.trace));
    let retried: string;
    if (!first.trace.written) retried = 'none of it had been written, so it was sent once more';
    else if (method === 'GET' || method === 'HEAD') {
      await sleep(READ_RETRY_MS);
      retried = `a read, so it was sent once more after ${READ_RETRY_MS} ms`;
    } else {
      const happened = await readBack(url, init);
      const how = describeConnection(first.trace);
      if (happened === true)
        throw new TargetUnreachable(request, first.error, `${how}; reading it back shows it took effect, so it was not sent again: its answer was lost`);
      if (happened === undefined)
        throw new TargetUnreachable(
          request,
          first.error,
          `${how}; not sent again: a write is never sent twice unless reading it back shows it did not take effect, and this one cannot be read back`,
        );
      retried = 'reading it back showed it had not taken effect, so it was sent once more';
    }
    const second = await attempt(url, init);
    if (second.response !== undefined) return second.response;
    throw new TargetUnreachable(
      request,
      second.error,
      `${describeConnection(second.trace)}; the first try failed ${describeConnection(first.trace)} (${describeCause(first.error)}); ${retried}`,
    );
  };

  return async (url, init) => {
    // Counted against the check that makes it; refused once that check has ended (scope.ts).
    const check = currentCheck();
    check?.admit();
    try {
      for (let attempt = 0; ; attempt += 1) {
        if (backoff !== false) await backoff.ready();
        const response = await deliver(url, init);
        options.onAnswer?.(init.method ?? 'GET', url, response.status);
        if (response.status !== 429 || backoff === false || attempt >= MAX_RATE_LIMIT_RETRIES) return response;
        const wait = retryAfterMs(response.headers.get('retry-after'));
        // A wait longer than a minute is a lock (MFA after wrong codes), not a rate limit to sit out.
        if (wait > MAX_RETRY_AFTER_MS) return response;
        await response.text();
        // Told once per pause, not once per request that joins or stretches it.
        if (backoff.pause(wait)) options.onBackoff?.(url, wait);
      }
    } finally {
      check?.release();
    }
  };
}
