/**
 * The checks a receiver runs on one delivery (spec part 2 and 6, D8): signature and
 * freshness through the one signature module, the event-id header against the body, the
 * content type and the body's shape. Every failing check is reported, not just the first,
 * so a tampered body shows both the signature mismatch and what changed in the shape;
 * the first failure is the delivery's reason.
 */
import { EventPayload, UserCreatedData } from '../schemas/webhooks.js';
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifySignature,
  WebhookVerificationError,
  type VerificationReason,
} from '../webhooks/signature.js';

export type CheckName = 'signature' | 'freshness' | 'event_id' | 'content_type' | 'body' | 'data';

export type FailureReason =
  | VerificationReason
  | 'missing_event_id'
  | 'event_id_mismatch'
  | 'wrong_content_type'
  | 'body_too_large'
  | 'invalid_json'
  | 'invalid_payload'
  | 'invalid_event_data';

export interface CheckFailure {
  check: CheckName;
  reason: FailureReason;
  message: string;
}

export interface DeliveryInput {
  /** Header names in lowercase, as node:http gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body bytes, exactly as received: the bytes that were signed. */
  body: Uint8Array;
  secret: string;
  toleranceSeconds: number;
  /** Unix seconds; default the wall clock (D8: the timestamp is real time). */
  nowSeconds?: number;
  /**
   * True for a body checked outside an HTTP request (`svc webhook verify`): the event-id and
   * Content-Type headers are then checked only when given.
   */
  captured?: boolean;
}

export interface CheckResult {
  ok: boolean;
  failures: CheckFailure[];
  /** The header's event id, else the body's. */
  eventId: string | null;
  eventType: string | null;
  /** X-Service-Timestamp when it is Unix seconds. */
  signedAt: number | null;
}

const SIGNATURE_CHECK: Record<VerificationReason, CheckName> = {
  missing_signature: 'signature',
  missing_timestamp: 'signature',
  malformed_signature: 'signature',
  malformed_timestamp: 'signature',
  signature_mismatch: 'signature',
  timestamp_too_old: 'freshness',
  timestamp_in_future: 'freshness',
};

/** One header value; a repeated header is treated as its first value. */
export function headerValue(headers: DeliveryInput['headers'], name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function signatureFailure(input: DeliveryInput): CheckFailure | null {
  try {
    verifySignature({
      secret: input.secret,
      body: input.body,
      signature: headerValue(input.headers, SIGNATURE_HEADER),
      timestamp: headerValue(input.headers, TIMESTAMP_HEADER),
      toleranceSeconds: input.toleranceSeconds,
      ...(input.nowSeconds === undefined ? {} : { nowSeconds: input.nowSeconds }),
    });
    return null;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return { check: SIGNATURE_CHECK[error.reason], reason: error.reason, message: error.message };
  }
}

function parseJson(body: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    // fatal: bytes that are not UTF-8 are not JSON either, rather than silently replaced.
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) };
  } catch (error) {
    return { ok: false, message: `the body is not JSON: ${(error as Error).message.replace(/\s+/g, ' ')}` };
  }
}

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, prefix: string): string {
  // zod says "Invalid input: expected string, received undefined" for an absent field; say "missing".
  const readable = (message: string): string => message.replace(/^Invalid input: expected (\w+), received undefined$/, 'missing ($1 expected)');
  return issues.map((issue) => `${[prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body'}: ${readable(issue.message)}`).join('; ');
}

function field(value: unknown, name: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : null;
}

/** Runs every check on one delivery. */
export function checkDelivery(input: DeliveryInput): CheckResult {
  const failures: CheckFailure[] = [];
  const signature = signatureFailure(input);
  if (signature) failures.push(signature);

  const headerId = headerValue(input.headers, EVENT_ID_HEADER);
  const captured = input.captured ?? false;
  if (!captured && (headerId === null || headerId === '')) {
    failures.push({ check: 'event_id', reason: 'missing_event_id', message: 'the X-Service-Event-Id header is missing' });
  }

  const contentType = headerValue(input.headers, 'content-type');
  if (contentType !== null && !/^application\/json\s*(;|$)/i.test(contentType)) {
    failures.push({ check: 'content_type', reason: 'wrong_content_type', message: `Content-Type is "${contentType}", not application/json` });
  } else if (contentType === null && !captured) {
    failures.push({ check: 'content_type', reason: 'wrong_content_type', message: 'the Content-Type header is missing (expected application/json)' });
  }

  const parsed = parseJson(input.body);
  let bodyId: string | null = null;
  let eventType: string | null = null;
  if (!parsed.ok) {
    failures.push({ check: 'body', reason: 'invalid_json', message: parsed.message });
  } else {
    bodyId = field(parsed.value, 'id');
    eventType = field(parsed.value, 'type');
    const payload = EventPayload.safeParse(parsed.value);
    if (!payload.success) {
      failures.push({ check: 'body', reason: 'invalid_payload', message: describeIssues(payload.error.issues, '') });
    } else if (payload.data.type === 'user.created') {
      const data = UserCreatedData.safeParse(payload.data.data);
      if (!data.success) {
        failures.push({ check: 'data', reason: 'invalid_event_data', message: `user.created ${describeIssues(data.error.issues, 'data')}` });
      }
    }
    if (headerId !== null && headerId !== '' && bodyId !== null && headerId !== bodyId) {
      failures.push({ check: 'event_id', reason: 'event_id_mismatch', message: `X-Service-Event-Id is ${headerId} but the body's id is ${bodyId}` });
    }
  }

  const timestamp = headerValue(input.headers, TIMESTAMP_HEADER);
  return {
    ok: failures.length === 0,
    failures,
    eventId: headerId !== null && headerId !== '' ? headerId : bodyId,
    eventType,
    signedAt: timestamp !== null && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : null,
  };
}
