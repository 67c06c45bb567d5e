/**
 * The bytes the probe sends: an event's payload made as the emulator makes it (payload.ts,
 * with the sample data of event-types.ts), written in any of several valid JSON forms, and
 * signed with signature.ts — over exactly the bytes sent, as the sender does.
 */
import { createHmac } from 'node:crypto';
import { newId, randomBase62 } from '../ids.js';
import { eventPayload, type EventPayload } from '../webhooks/payload.js';
import { sampleEventData } from '../webhooks/event-types.js';
import { signDelivery } from '../webhooks/signature.js';
import type { EventType } from '../schemas/words.js';
import type { BuildContext, ProbeDelivery } from './types.js';

/** The JSON forms of one payload: svc's own compact form and three others that parse to the same value. */
export type Serialisation = 'compact' | 'spaces' | 'escapes' | 'key-order';

/** A payload of `type` with a fresh event id, created `ageSeconds` before the run began. */
export function probePayload(context: BuildContext, type: EventType, options: { ageSeconds?: number; data?: Record<string, unknown> } = {}): EventPayload {
  const created = new Date((context.nowSeconds - (options.ageSeconds ?? 0)) * 1000).toISOString();
  return eventPayload({
    id: newId('evt'),
    // eventPayload keeps the five delivered fields; the tenant is the emulator's bookkeeping.
    tenantId: '',
    type,
    created_at: created,
    api_version: context.apiVersion,
    data: options.data ?? sampleEventData(type),
  });
}

/** Every object's keys in reverse order, at any depth. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reversedKeys(inner)]),
  );
}

/** The payload as JSON text in the form asked for. */
export function serialise(payload: EventPayload, form: Serialisation): string {
  switch (form) {
    case 'compact':
      return JSON.stringify(payload);
    case 'spaces':
      return JSON.stringify(payload, null, 2);
    case 'escapes':
      // JSON allows any character as \uXXXX and the solidus as \/; JSON.stringify writes neither.
      return JSON.stringify(payload)
        .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .replace(/\//g, '\\/');
    case 'key-order':
      return JSON.stringify(reversedKeys(payload));
  }
}

export interface SignOptions {
  /** The secret to sign with; default the run's. */
  secret?: string;
  /** Seconds before the run began (negative: after) to sign at; default 0. */
  signedAgo?: number;
}

/** The headers of a delivery of `body`, signed as svc signs (`sha256=` HMAC over `<timestamp>.<body>`). */
export function signedHeaders(context: BuildContext, eventId: string, body: string, options: SignOptions = {}): Record<string, string> {
  return {
    ...signDelivery(options.secret ?? context.secret, eventId, body, context.nowSeconds - (options.signedAgo ?? 0)),
    'Content-Type': 'application/json',
  };
}

/** A delivery of `payload` in `form`, validly signed. */
export function signedDelivery(
  context: BuildContext,
  sent: string,
  payload: EventPayload,
  form: Serialisation = 'compact',
  options: SignOptions = {},
): ProbeDelivery {
  const body = serialise(payload, form);
  return { sent, eventId: payload.id, eventType: payload.type, headers: signedHeaders(context, payload.id, body, options), body };
}

/**
 * The signature a handler must NOT accept: the HMAC of the body alone, without `<timestamp>.`.
 * It is the forgery the body-only case sends, not a way svc signs (that is signature.ts).
 */
export function bodyOnlySignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex')}`;
}

/** A secret of the same shape that is not the handler's. */
export function otherSecret(): string {
  return `whsec_${randomBase62(32)}`;
}
