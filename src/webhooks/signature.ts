/**
 * Webhook signatures (spec part 6, D8), shared by the sender, `svc webhook listen`,
 * `svc webhook verify` and the conformance suite:
 *   X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(secret, `${timestamp}.${body}`)>
 *   X-Service-Timestamp: Unix seconds of signing
 * The key is the secret string's UTF-8 bytes; the exact body bytes sent are the bytes signed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A receiver rejects a delivery whose timestamp is older than this (spec part 6, 8). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_PREFIX = 'sha256=';
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const EVENT_ID_HEADER = 'x-service-event-id';

export type VerificationReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_in_future';

/** The one named failure of verification, with a machine-readable reason. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationReason,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Lowercase hex HMAC-SHA256 over `<timestamp>.<body>`. */
export function computeSignature(secret: string, timestamp: number | string, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return hmac.digest('hex');
}

/** The three headers a delivery carries besides Content-Type. */
export function signDelivery(
  secret: string,
  eventId: string,
  body: string | Uint8Array,
  timestamp: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    'X-Service-Signature': `${SIGNATURE_PREFIX}${computeSignature(secret, timestamp, body)}`,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Event-Id': eventId,
  };
}

export interface VerifyInput {
  secret: string;
  body: string | Uint8Array;
  signature: string | null | undefined;
  timestamp: string | null | undefined;
  /** Seconds of allowed age (and clock skew into the future); default 300. */
  toleranceSeconds?: number;
  /** Current Unix time in seconds (for tests); default the wall clock. */
  nowSeconds?: number;
}

/**
 * Checks a delivery's signature (constant-time) and freshness. Returns the timestamp;
 * throws WebhookVerificationError with the reason otherwise.
 */
export function verifySignature(input: VerifyInput): number {
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (input.signature === null || input.signature === undefined || input.signature === '') {
    throw new WebhookVerificationError('missing_signature', 'the X-Service-Signature header is missing');
  }
  if (input.timestamp === null || input.timestamp === undefined || input.timestamp === '') {
    throw new WebhookVerificationError('missing_timestamp', 'the X-Service-Timestamp header is missing');
  }
  if (!/^\d{1,12}$/.test(input.timestamp)) {
    throw new WebhookVerificationError('malformed_timestamp', `the timestamp "${input.timestamp}" is not Unix seconds`);
  }
  const match = /^sha256=([0-9a-f]{64})$/.exec(input.signature);
  if (!match) {
    throw new WebhookVerificationError('malformed_signature', 'the signature is not "sha256=" followed by 64 lowercase hex digits');
  }
  const expected = Buffer.from(computeSignature(input.secret, input.timestamp, input.body), 'hex');
  const given = Buffer.from(match[1]!, 'hex');
  if (!timingSafeEqual(expected, given)) {
    throw new WebhookVerificationError('signature_mismatch', 'the signature does not match the body and timestamp under this secret');
  }
  const timestamp = Number(input.timestamp);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `the timestamp is ${now - timestamp} s old (limit ${tolerance} s)`);
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError('timestamp_in_future', `the timestamp is ${timestamp - now} s in the future (limit ${tolerance} s)`);
  }
  return timestamp;
}
