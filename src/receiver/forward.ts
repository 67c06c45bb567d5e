/**
 * `--forward-to`: relays a verified delivery to the user's own handler as it came — POST,
 * the X-Service-* headers, Content-Type and the raw body bytes — so the handler can run its
 * own signature check on exactly what the sender signed.
 */
import { loadUndici } from '../undici.js';

/** The handler must answer before the sender's 30 s delivery timeout (spec part 6), so the receiver can still pass its status on. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 25_000;
const PREVIEW_CHARS = 200;
const MAX_READ_BYTES = 64 * 1024;

export interface ForwardOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
  bodyPreview: string;
}

/** The headers relayed: every X-Service-* header and Content-Type, values untouched. */
export function relayedHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const relayed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === 'content-type' || name.startsWith('x-service-')) relayed[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return relayed;
}

async function readPreview(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= MAX_READ_BYTES) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function describeError(error: unknown, timeoutMs: number): string {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED): is your handler running?';
  return `${code ? `${code}: ` : ''}${err.message}`;
}

/** POSTs the delivery to `url`; never throws. */
export async function forwardDelivery(options: {
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Uint8Array;
  timeoutMs?: number;
}): Promise<ForwardOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    const response = await (
      await loadUndici()
    ).request(options.url, {
      method: 'POST',
      headers: { ...relayedHeaders(options.headers), 'user-agent': 'svc-webhook-listen/1 (forward)' },
      body: Buffer.from(options.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bodyPreview = await readPreview(response.body);
    return { status: response.statusCode, error: null, durationMs: elapsed(), bodyPreview };
  } catch (error) {
    return { status: null, error: describeError(error, timeoutMs), durationMs: elapsed(), bodyPreview: '' };
  }
}
