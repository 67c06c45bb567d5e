/**
 * Sends one signed delivery attempt over undici (spec part 6, D9): 2xx within the
 * timeout is success; anything else, a redirect (never followed), a refused connection or
 * no answer in time is a failure with a readable error. The answer's body is read up to
 * 64 KiB and otherwise ignored, so a huge answer never blocks the server. A target the
 * webhook target policy refuses (targets.ts) is a failure too, with no status code: it is
 * checked again at each attempt, on the addresses the connection then uses; so is the rule
 * that no attempt reaches svc itself (docs/webhook-targets.md#svc-never-calls-itself), on the
 * look-up and again on the connection as made.
 */
import { isIP } from 'node:net';
import type { Agent } from 'undici';
import type { ListeningAddress, RuntimeOptions } from '../runtime.js';
import { loadUndici } from '../undici.js';
import { signDelivery } from './signature.js';
import { checkAddresses, guardedConnector, hostLookup, TargetRefusedError, urlHost, urlPort } from './target-lookup.js';
import { targetPolicy } from './targets.js';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 30_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = 'svc-webhooks/1';

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  signedAt: number;
}

/** What an attempt reads of the runtime's options: the policy and the DNS server its hosts are resolved with. */
export type TargetOptions = Pick<RuntimeOptions, 'webhookTargets' | 'webhookDnsServer'>;

/**
 * One agent per policy and resolver, and per runtime's listeners: its look-up is the policy's
 * check, and a pooled connection, checked when it was opened, is only reused under the policy
 * and by the svc that checked it (one svc's receiver may be another svc in the same process).
 */
const agents = new WeakMap<ReadonlySet<ListeningAddress>, Map<string, Agent>>();
const NO_LISTENERS: ReadonlySet<ListeningAddress> = new Set();

/** Reads and drops the body, at most MAX_RESPONSE_BYTES. */
async function drainLimited(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<void> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy();
      return;
    }
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof TargetRefusedError) return error.message;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (err.cause instanceof TargetRefusedError) return err.cause.message;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const code = err.code ?? err.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${code})`;
    case 'ETIMEOUT':
      return 'the host name was not resolved in time (ETIMEOUT)';
    default:
      return `${code ? `${code}: ` : ''}${err.message}`;
  }
}

/** Signs `body` now (wall-clock seconds, D8) and POSTs it to `url`, if the target policy allows it. */
export async function sendAttempt(options: {
  url: string;
  secret: string;
  eventId: string;
  body: string;
  timeoutMs?: number;
  /** The runtime's options (`rt.options`); without them the default policy and the system's resolver. */
  targets?: TargetOptions;
  /** Where the sending svc listens (`rt.listening`): never reached. */
  listening?: ReadonlySet<ListeningAddress>;
}): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const undici = await loadUndici();
  // createRuntime has read the policy already, so this does not throw.
  const policy = targetPolicy(options.targets?.webhookTargets);
  const dnsServer = options.targets?.webhookDnsServer;
  const listening = options.listening ?? NO_LISTENERS;
  const key = `${policy.text} ${dnsServer ?? ''}`;
  let ofListeners = agents.get(listening);
  if (!ofListeners) agents.set(listening, (ofListeners = new Map<string, Agent>()));
  let agent = ofListeners.get(key);
  if (!agent) {
    agent = new undici.Agent({ keepAliveTimeout: 10_000, connections: 128, connect: guardedConnector(undici, policy, hostLookup(dnsServer), listening) });
    ofListeners.set(key, agent);
  }
  const signedAt = Math.floor(Date.now() / 1000);
  const headers = {
    ...signDelivery(options.secret, options.eventId, options.body, signedAt),
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
  };
  const started = performance.now();
  const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
  try {
    // An address in the URL is connected to without a look-up, so it is checked here.
    const host = urlHost(options.url);
    const refusal = isIP(host) === 0 ? null : checkAddresses(policy, host, [host], { listening, port: urlPort(options.url) });
    if (refusal) throw new TargetRefusedError(refusal);
    const signal = AbortSignal.timeout(timeoutMs);
    const response = await undici.request(options.url, { method: 'POST', headers, body: options.body, dispatcher: agent, signal });
    await drainLimited(response.body);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null, durationMs: elapsed(), signedAt };
    const error = status >= 300 && status < 400 ? `redirect ${status} (redirects are not followed)` : `non-2xx answer ${status}`;
    return { ok: false, statusCode: status, error, durationMs: elapsed(), signedAt };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeError(error, timeoutMs), durationMs: elapsed(), signedAt };
  }
}
