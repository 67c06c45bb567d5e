/**
 * One probe delivery on the wire: a POST with the given headers and exact body, never
 * following a redirect (a sender does not: only a 2xx counts, spec part 6), abandoned at its
 * time limit or when the run's own deadline passes. What came back is read up to a few KiB.
 */
import type { Agent } from 'undici';
import { loadUndici } from '../undici.js';
import { USER_AGENT } from '../webhooks/sender.js';
import type { Answer, ProbeDelivery } from './types.js';

/** How much of an answer's body the report keeps. */
export const ANSWER_TEXT_BYTES = 2048;

/** Error codes that mean the request never reached the handler. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** An agent for one run: at most `connections` sockets, and a connect timeout below the case budget so an unreachable host reads as such. */
export async function probeAgent(connections: number, caseTimeoutMs: number): Promise<Agent> {
  const undici = await loadUndici();
  return new undici.Agent({ connections, keepAliveTimeout: 5_000, connect: { timeout: Math.max(100, Math.min(5_000, Math.floor(caseTimeoutMs / 2))) } });
}

async function readText(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= ANSWER_TEXT_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_TEXT_BYTES).toString('utf8');
}

function failed(error: unknown, timeoutMs: number, deadline: AbortSignal, durationMs: number): Answer {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code;
  const none = { status: null, location: null, text: '', durationMs };
  if (deadline.aborted) return { ...none, failure: 'timeout', error: "no answer before the run's own time limit" };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { ...none, failure: 'timeout', error: `no answer within ${timeoutMs / 1000} s` };
  }
  if (code !== undefined && CONNECTION_CODES.has(code)) return { ...none, failure: 'connection', error: `${code}: ${err.cause?.message ?? err.message}` };
  // Reached, but what came back was no HTTP answer undici could read (a server of another protocol, a cut answer).
  return { ...none, failure: 'protocol', error: `no readable HTTP answer: ${code === undefined ? '' : `${code}: `}${err.message}` };
}

/** POSTs one delivery to `url` and says what came back. */
export async function sendDelivery(agent: Agent, url: string, delivery: ProbeDelivery, timeoutMs: number, deadline: AbortSignal): Promise<Answer> {
  const undici = await loadUndici();
  const started = performance.now();
  const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
  // An own controller and timer: a composed AbortSignal.any of AbortSignal.timeout can be collected before it fires (Node 20).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('the delivery timed out', 'TimeoutError')), timeoutMs);
  const onDeadline = (): void => controller.abort(deadline.reason);
  deadline.addEventListener('abort', onDeadline, { once: true });
  const signal = controller.signal;
  try {
    if (deadline.aborted) throw deadline.reason;
    const response = await undici.request(url, {
      method: 'POST',
      headers: { ...delivery.headers, 'User-Agent': USER_AGENT },
      body: delivery.body,
      dispatcher: agent,
      signal,
    });
    const location = response.headers['location'];
    const text = await readText(response.body);
    return {
      status: response.statusCode,
      error: null,
      failure: null,
      location: typeof location === 'string' ? location : null,
      text,
      durationMs: elapsed(),
    };
  } catch (error) {
    return failed(error, timeoutMs, deadline, elapsed());
  } finally {
    clearTimeout(timer);
    deadline.removeEventListener('abort', onDeadline);
  }
}
