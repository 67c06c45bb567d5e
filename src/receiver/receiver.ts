/**
 * The webhook receiver behind `svc webhook listen`, as a library: the loopback receiver
 * (loopback.ts) with listen's policy. It takes POSTs on any path, runs every check on the raw
 * body (checks.ts), answers 400 with the reasons or processes the delivery once per event id, and reports one typed
 * record per delivery. A delivery is "processed" when it passes the checks and is not a
 * duplicate; its event id counts as seen only once it has been answered 2xx, so a sender's
 * retry of a delivery that failed (on purpose, or in the forwarded handler) is processed
 * again, while a repeat of one that succeeded is answered 2xx and flagged as a duplicate.
 */
import { SIGNATURE_TOLERANCE_SECONDS } from '../webhooks/signature.js';
import { checkDelivery, type CheckFailure } from './checks.js';
import { forwardDelivery } from './forward.js';
import { listenLoopback, type ReceivedDelivery, type Reply } from './loopback.js';
import { createFailurePolicy, type FailurePolicyOptions } from './policy.js';
import { emptySummary, tally } from './summary.js';
import type { Answer, ForwardResult, DeliveryReport, ReceiverSummary, Respond } from './types.js';

export const DEFAULT_RECEIVER_PORT = 4020;
export const DEFAULT_RECEIVER_HOST = '127.0.0.1';
/** The path shown in the receiver's URL (any path is accepted). */
export const RECEIVER_PATH = '/webhooks';
/** A delivery body larger than this is refused (413) without being kept. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceiverOptions extends FailurePolicyOptions {
  /** The signing secret; null until known (`--register` learns it after listening). */
  secret: string | null;
  toleranceSeconds?: number;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The answer to a processed delivery; default 200, or the handler's status with forwardTo. */
  respond?: Respond;
  forwardTo?: string;
  forwardTimeoutMs?: number;
  /** Wall clock in ms (tests); default Date.now. */
  nowMs?: () => number;
}

export interface Receiver {
  /** Where senders should POST: http://<host>:<port>/webhooks. */
  readonly url: string;
  readonly port: number;
  setSecret(secret: string): void;
  /** Calls `listener` with each delivery's report, once it is answered (or held), and the exact bytes it carried. */
  onDelivery(listener: (delivery: DeliveryReport, body: Buffer) => void): void;
  summary(): ReceiverSummary;
  /** Stops listening and drops held connections. */
  close(): Promise<void>;
}

interface Seen {
  seq: number;
  receivedAt: string;
}

function is2xx(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

function rejection(failures: CheckFailure[]): unknown {
  const [first] = failures;
  return { error: first?.message ?? 'invalid delivery', code: first?.reason ?? 'invalid', details: failures };
}

const FAILURE_MESSAGES: Partial<Record<Answer['cause'], string>> = {
  fail_first: 'failed on purpose (--fail-first)',
  fail_rate: 'failed on purpose (--fail-rate)',
  respond: 'answered as --respond says',
  forward: 'the forwarded handler answered',
};

function failureMessage(cause: Answer['cause'], status: number, forward: ForwardResult | null): string {
  if (cause === 'forward_failed') return `forwarding failed: ${forward?.error ?? 'no answer'}`;
  return `${FAILURE_MESSAGES[cause] ?? 'answered'} ${status}`;
}

/** Starts a receiver; resolves once it listens. */
export async function createReceiver(options: ReceiverOptions): Promise<Receiver> {
  let secret = options.secret;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const failOnPurpose = createFailurePolicy(options);
  const listeners: Array<(delivery: DeliveryReport, body: Buffer) => void> = [];
  const summary = emptySummary();
  const seen = new Map<string, Seen>();
  const attempts = new Map<string, number>();
  /** Event ids being processed: a second delivery of the same event waits for the first's outcome. */
  const inFlight = new Map<string, Promise<void>>();
  let seq = 0;

  function report(delivery: DeliveryReport, body: Buffer): void {
    tally(summary, delivery);
    for (const listener of listeners) listener(delivery, body);
  }

  /** Decides the answer of a delivery that passed the checks and is not a duplicate. */
  async function processDelivery(delivery: ReceivedDelivery): Promise<{ respond: Respond; answer: Answer['cause']; forward: ForwardResult | null }> {
    const failure = failOnPurpose();
    if (failure) return { respond: failure.respond, answer: failure.cause, forward: null };
    let forward: ForwardResult | null = null;
    if (options.forwardTo !== undefined) {
      const outcome = await forwardDelivery({
        url: options.forwardTo,
        headers: delivery.headers,
        body: delivery.body,
        ...(options.forwardTimeoutMs === undefined ? {} : { timeoutMs: options.forwardTimeoutMs }),
      });
      forward = { url: options.forwardTo, ...outcome };
    }
    if (options.respond) return { respond: options.respond, answer: 'respond', forward };
    if (forward) {
      // The handler's status goes back to the sender, so a failing handler makes it retry.
      if (forward.status !== null) return { respond: { kind: 'status', status: forward.status }, answer: 'forward', forward };
      const status = forward.error?.startsWith('no answer') ? 504 : 502;
      return { respond: { kind: 'status', status }, answer: 'forward_failed', forward };
    }
    return { respond: { kind: 'status', status: 200 }, answer: 'ok', forward: null };
  }

  async function handle(delivery: ReceivedDelivery, reply: Reply): Promise<void> {
    if (delivery.method !== 'POST') {
      reply(405, { error: 'only POST deliveries are received here', code: 'method_not_allowed', details: [] });
      return;
    }
    if (secret === null) {
      reply(503, { error: 'the receiver does not know its signing secret yet', code: 'not_ready', details: [] });
      return;
    }
    const { body: bytes, bodyBytes: size, receivedAt: receivedMs } = delivery;
    const receivedAt = new Date(receivedMs).toISOString();
    const failures: CheckFailure[] = [];
    if (size > MAX_BODY_BYTES) {
      failures.push({ check: 'body', reason: 'body_too_large', message: `the body is ${size} bytes (limit ${MAX_BODY_BYTES})` });
    }
    const result = checkDelivery({ headers: delivery.headers, body: bytes, secret, toleranceSeconds: tolerance, nowSeconds: Math.floor(receivedMs / 1000) });
    failures.push(...result.failures);
    const record: DeliveryReport = {
      kind: 'delivery',
      seq: ++seq,
      receivedAt,
      method: delivery.method,
      path: delivery.path,
      eventId: result.eventId,
      eventType: result.eventType,
      signedAt: result.signedAt,
      ageSeconds: result.signedAt === null ? null : Math.floor(receivedMs / 1000) - result.signedAt,
      verdict: 'valid',
      reason: failures[0]?.reason ?? null,
      failures,
      attempt: null,
      firstSeen: null,
      answer: { status: 200, cause: 'ok' },
      forward: null,
      bodyBytes: size,
    };

    if (failures.length > 0 || result.eventId === null) {
      const status = size > MAX_BODY_BYTES ? 413 : 400;
      reply(status, rejection(failures));
      report({ ...record, verdict: 'invalid', answer: { status, cause: 'checks_failed' } }, bytes);
      return;
    }

    const eventId = result.eventId;
    const attempt = (attempts.get(eventId) ?? 0) + 1;
    attempts.set(eventId, attempt);
    record.attempt = attempt;
    for (let pending = inFlight.get(eventId); pending; pending = inFlight.get(eventId)) await pending;
    const first = seen.get(eventId);
    if (first) {
      reply(200, { received: true, eventId, duplicate: true });
      report({ ...record, verdict: 'duplicate', firstSeen: first, answer: { status: 200, cause: 'duplicate' } }, bytes);
      return;
    }

    let release = (): void => {};
    inFlight.set(
      eventId,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    try {
      const { respond, answer, forward } = await processDelivery(delivery);
      const status = respond.kind === 'status' ? respond.status : null;
      if (is2xx(status)) seen.set(eventId, { seq: record.seq, receivedAt });
      if (status !== null) {
        const answerBody = is2xx(status)
          ? { received: true, eventId, duplicate: false }
          : { error: failureMessage(answer, status, forward), code: answer, details: [] };
        reply(status, answerBody);
      }
      // With no status the connection is held open until the sender gives up or the receiver closes.
      report({ ...record, forward, answer: { status, cause: answer } }, bytes);
    } finally {
      inFlight.delete(eventId);
      release();
    }
  }

  const loopback = await listenLoopback(
    {
      host: options.host ?? DEFAULT_RECEIVER_HOST,
      port: options.port ?? DEFAULT_RECEIVER_PORT,
      maxBodyBytes: MAX_BODY_BYTES,
      ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
    },
    handle,
  );

  return {
    url: `${loopback.origin}${RECEIVER_PATH}`,
    port: loopback.port,
    setSecret(value) {
      secret = value;
    },
    onDelivery(listener) {
      listeners.push(listener);
    },
    summary: () => structuredClone(summary),
    close: () => loopback.close(),
  };
}
