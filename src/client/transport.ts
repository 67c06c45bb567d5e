/**
 * The client's one way to the wire: builds the URL, sends JSON (or raw bytes, for callers that
 * must send malformed input), reads the answer once as text and parses it when it is JSON.
 * Every answer is an ApiResult that keeps the request beside the response, so a caller (the
 * conformance suite) can say exactly which exchange broke a rule.
 */
import { loadUndici } from '../undici.js';

/** What the client reads of an answer: a fetch Response has it, and so does an answer read whole beforehand. */
export type FetchAnswer = Pick<Response, 'status' | 'headers' | 'text'>;

/** The subset of `fetch` the client needs: undici's, the platform's, `app.request` of a Hono app, or the conformance suite's. */
export type FetchLike = (url: string, init: RequestInit) => Promise<FetchAnswer>;

/** What was sent, for failure reports. */
export interface SentRequest {
  method: string;
  url: string;
  /** The path below the base URL, with the query (`/users?page=2`). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

interface Exchange {
  status: number;
  headers: Headers;
  /** The answer's text exactly as received. */
  text: string;
  request: SentRequest;
  durationMs: number;
}

/** A 2xx answer; `body` is typed as the operation promises (not validated here). */
export interface Success<T> extends Exchange {
  ok: true;
  body: T;
}

/** A non-2xx answer; `body` is the parsed JSON when there was any (the error envelope if the server conforms). */
export interface Failure extends Exchange {
  ok: false;
  body: unknown;
}

export type ApiResult<T> = Success<T> | Failure;

/** Query values; undefined ones are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  query?: QueryValues | undefined;
  /** Sent as JSON with Content-Type: application/json. */
  body?: unknown;
  /** Sent as it is (no Content-Type unless given in `headers`). */
  rawBody?: string | Uint8Array | undefined;
  headers?: Record<string, string> | undefined;
  /** Overrides the client's key for this call; null sends no key at all. */
  apiKey?: string | null | undefined;
  /** A session token sent as `Authorization: Bearer` (D4). */
  bearer?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch?: FetchLike | undefined;
  /** Headers sent with every call (a User-Agent, say). */
  headers?: Record<string, string> | undefined;
  /** Real milliseconds before a call is abandoned with a TimeoutError (default 30 s; 0: never). */
  timeoutMs?: number | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** undici's fetch has its own type names for the same shapes. */
const defaultFetch: FetchLike = async (url, init) => ((await loadUndici()).fetch as unknown as FetchLike)(url, init);

export function buildPath(path: string, query?: QueryValues): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(name, String(value));
  const search = params.toString();
  return search === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends one call; network failures and timeouts reject (they are not answers). */
export async function send<T>(options: TransportOptions, method: string, path: string, call: CallOptions = {}): Promise<ApiResult<T>> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fullPath = buildPath(path, call.query);
  const url = /^https?:\/\//.test(path) ? fullPath : `${base}${fullPath}`;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const key = call.apiKey === undefined ? options.apiKey : call.apiKey;
  if (key !== null && key !== undefined) headers['x-api-key'] = key;
  if (call.bearer !== undefined) headers['authorization'] = `Bearer ${call.bearer}`;
  let body: string | Uint8Array | undefined;
  if (call.rawBody !== undefined) body = call.rawBody;
  else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, call.headers);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signals = [...(timeoutMs > 0 ? [AbortSignal.timeout(timeoutMs)] : []), ...(call.signal === undefined ? [] : [call.signal])];
  const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
  const started = performance.now();
  const response = await (options.fetch ?? defaultFetch)(url, {
    method,
    headers,
    ...(signal === undefined ? {} : { signal }),
    ...(body === undefined ? {} : { body: body as string }),
  });
  const text = await response.text();
  const request: SentRequest = {
    method,
    url,
    path: fullPath,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body).toString('utf8'),
  };
  const exchange = { status: response.status, headers: response.headers, text, request, durationMs: performance.now() - started };
  const parsed = parseJson(text);
  return response.status >= 200 && response.status < 300 ? { ok: true, ...exchange, body: parsed as T } : { ok: false, ...exchange, body: parsed };
}

/** The error an `unwrap`ped call throws on a non-2xx answer. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: unknown[];
  constructor(readonly result: Failure) {
    const body = (result.body ?? {}) as { error?: unknown; code?: unknown; details?: unknown };
    const message = typeof body.error === 'string' ? body.error : `HTTP ${result.status}`;
    super(`${result.request.method} ${result.request.path} → ${result.status}: ${message}`);
    this.name = 'ServiceError';
    this.status = result.status;
    this.code = typeof body.code === 'string' ? body.code : undefined;
    this.details = Array.isArray(body.details) ? body.details : [];
  }
}

/** The body of a 2xx answer, or a ServiceError. */
export function unwrap<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new ServiceError(result);
  return result.body;
}
