/**
 * The cases of `svc webhook probe`, in the order they are reported: what each sends, what
 * the handler must answer (spec part 6: a 2xx for a good delivery within 30 s; a receiver
 * verifies the signature over `<timestamp>.<body>` and refuses a timestamp older than 300 s),
 * why it matters and how to fix a handler that fails it. Each case's section of
 * docs/listen.md is named literally, so the docs-links test holds every one to an anchor.
 */
import { EVENT_TYPES, type EventType } from '../schemas/words.js';
import { sampleEventData } from '../webhooks/event-types.js';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../webhooks/signature.js';
import { bodyOnlySignature, otherSecret, probePayload, signedDelivery, signedHeaders } from './deliveries.js';
import type { BuildContext, ProbeCase, ProbeDelivery } from './types.js';

/** The e-mail of the user.created sample, which the body-changed case replaces after signing. */
const SAMPLE_EMAIL = String(sampleEventData('user.created')['email']);

/** How old the stale case's timestamp is: clearly past the spec's 300 s, so clock skew cannot excuse it. */
export const STALE_SECONDS = SIGNATURE_TOLERANCE_SECONDS + 60;
/** How far ahead the future case's timestamp is. */
export const FUTURE_SECONDS = 3600;
/** How much older the second event of the out-of-order case is. */
export const OUT_OF_ORDER_SECONDS = 60;

/** Header names as a map's keys: the signed headers are written in the spec's case. */
const header = (name: string): string => name.replace(/(^|-)([a-z])/g, (_, dash: string, char: string) => `${dash}${char.toUpperCase()}`);
const SIGNATURE = header(SIGNATURE_HEADER);
const TIMESTAMP = header(TIMESTAMP_HEADER);

function without(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

const EVENT_WHY =
  "svc sends every event type of the document to a webhook subscribed to '*', and more types may come: a handler that answers anything but 2xx to a type it does not handle makes the sender retry it five times and park it in the DLQ.";
const EVENT_FIX = 'answer 200 to every verified delivery; dispatch on `type` and ignore the types you do not handle (log them) rather than throwing.';

function eventCase(type: EventType): ProbeCase {
  return {
    id: `event.${type}`,
    expect: 'accept',
    severity: 'required',
    summary: `${type}, its documented payload, validly signed`,
    why: EVENT_WHY,
    fix: EVENT_FIX,
    docs: 'docs/listen.md#probe-event-types',
    build: (context) => [signedDelivery(context, `${type}, signed now`, probePayload(context, type))],
  };
}

const RAW_BODY_WHY =
  'the signature covers the bytes sent, not the JSON value: a handler that verifies JSON.stringify(JSON.parse(body)), or a body its framework parsed and wrote again, refuses any sender whose JSON is spaced, escaped or ordered differently from its own.';
const RAW_BODY_FIX = 'verify the raw request body, byte for byte, before parsing it (read the stream yourself, or your framework’s raw-body option).';

/** tx.failed with a reason that holds an accented letter and solidi, so the escaped form differs from the plain one. */
function escapesPayload(context: BuildContext) {
  return probePayload(context, 'tx.failed', { data: { ...sampleEventData('tx.failed'), reason: 'contrat archivé: see https://example.com/tx/2' } });
}

function rawBodyCase(id: 'spaces' | 'escapes' | 'key-order', summary: string): ProbeCase {
  return {
    id: `raw-body.${id}`,
    expect: 'accept',
    severity: 'required',
    summary,
    why: RAW_BODY_WHY,
    fix: RAW_BODY_FIX,
    docs: 'docs/listen.md#probe-raw-body',
    build: (context) => [
      signedDelivery(context, summary, id === 'escapes' ? escapesPayload(context) : probePayload(context, 'user.created'), id === 'spaces' ? 'spaces' : id),
    ],
  };
}

/** A refused delivery of user.created whose headers or body `spoil` changes after a valid signing. */
function refuseCase(
  id: string,
  summary: string,
  texts: Pick<ProbeCase, 'why' | 'fix' | 'docs'>,
  spoil: (delivery: ProbeDelivery, context: BuildContext) => ProbeDelivery,
): ProbeCase {
  return {
    id: `refuse.${id}`,
    expect: 'refuse',
    severity: 'required',
    summary,
    ...texts,
    build: (context) => [spoil(signedDelivery(context, summary, probePayload(context, 'user.created')), context)],
  };
}

/** Every case, in report order. */
export const PROBE_CASES: readonly ProbeCase[] = [
  ...EVENT_TYPES.map(eventCase),
  rawBodyCase('spaces', 'user.created pretty-printed (spaces and newlines), signed over those bytes'),
  rawBodyCase('escapes', 'tx.failed with \\u00e9 and \\/ escapes in its JSON, signed over those bytes'),
  rawBodyCase('key-order', 'user.created with its keys in another order, signed over those bytes'),
  {
    id: 'delivery.duplicate',
    expect: 'accept',
    severity: 'required',
    summary: 'the same event (same X-Service-Event-Id and body) delivered twice, each signed',
    why: 'a sender retries whenever it did not see your 2xx in time, so the same event arrives again: answering it 4xx or 5xx makes the sender retry it into the DLQ, and processing it twice double-counts.',
    fix: 'keep the event ids you processed; for one you have seen, do nothing and answer 200.',
    docs: 'docs/listen.md#probe-duplicate',
    build: (context) => {
      const payload = probePayload(context, 'user.created');
      return [
        signedDelivery(context, 'user.created, first delivery', payload),
        signedDelivery(context, 'the same event again (a retry), signed anew', payload),
      ];
    },
  },
  {
    id: 'delivery.out-of-order',
    expect: 'accept',
    severity: 'required',
    summary: `a newer event, then one created and signed ${OUT_OF_ORDER_SECONDS} s before it`,
    why: 'deliveries run in parallel and retries come later, so events arrive out of order: a handler that refuses an event older than the last one it saw loses it to the DLQ.',
    fix: 'accept every verified event; when order matters, compare `created_at` with what you stored and skip a stale update, still answering 200.',
    docs: 'docs/listen.md#probe-out-of-order',
    build: (context) => [
      signedDelivery(context, 'user.updated created now', probePayload(context, 'user.updated')),
      signedDelivery(
        context,
        `user.created created and signed ${OUT_OF_ORDER_SECONDS} s earlier`,
        probePayload(context, 'user.created', { ageSeconds: OUT_OF_ORDER_SECONDS }),
        'compact',
        {
          signedAgo: OUT_OF_ORDER_SECONDS,
        },
      ),
    ],
  },
  refuseCase(
    'unsigned',
    'user.created without an X-Service-Signature header',
    {
      why: 'anyone who finds the URL can post an event without a signature: a handler that accepts it runs forged events.',
      fix: 'refuse (400 or 401) a delivery without X-Service-Signature before anything else.',
      docs: 'docs/listen.md#probe-unsigned',
    },
    (delivery) => ({ ...delivery, headers: without(delivery.headers, SIGNATURE) }),
  ),
  refuseCase(
    'wrong-secret',
    'user.created signed with another secret',
    {
      why: 'a handler that accepts a signature made with any key checks nothing: anyone can sign.',
      fix: "compute the HMAC with your webhook's own secret and compare it with the header in constant time.",
      docs: 'docs/listen.md#probe-wrong-secret',
    },
    (delivery, context) => ({ ...delivery, headers: signedHeaders(context, delivery.eventId, delivery.body, { secret: otherSecret() }) }),
  ),
  refuseCase(
    'body-only-signature',
    'user.created with an HMAC over the body alone, without "<timestamp>."',
    {
      why: 'a signature that leaves out the timestamp can be replayed with any timestamp, so the freshness check protects nothing.',
      fix: 'sign `<timestamp>.<raw body>` exactly and accept only that; never fall back to the body alone.',
      docs: 'docs/listen.md#probe-body-only-signature',
    },
    (delivery, context) => ({ ...delivery, headers: { ...delivery.headers, [SIGNATURE]: bodyOnlySignature(context.secret, delivery.body) } }),
  ),
  refuseCase(
    'malformed-signature',
    'user.created whose signature is cut to its first 16 hex digits',
    {
      why: 'a handler that compares only as many characters as it was given, or a prefix, accepts a guess of a few characters.',
      fix: 'refuse anything but `sha256=` and 64 lowercase hex digits, and compare the whole value in constant time (timingSafeEqual after checking the lengths).',
      docs: 'docs/listen.md#probe-malformed-signature',
    },
    (delivery) => ({ ...delivery, headers: { ...delivery.headers, [SIGNATURE]: delivery.headers[SIGNATURE]!.slice(0, 'sha256='.length + 16) } }),
  ),
  {
    id: 'refuse.stale-timestamp',
    expect: 'refuse',
    severity: 'required',
    summary: `user.created validly signed ${STALE_SECONDS} s ago`,
    why: `a delivery captured once can be replayed forever unless you refuse old ones: the spec says a receiver refuses a timestamp older than ${SIGNATURE_TOLERANCE_SECONDS} s.`,
    fix: `after verifying the signature, refuse a delivery whose X-Service-Timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} s from now.`,
    docs: 'docs/listen.md#probe-stale-timestamp',
    build: (context) => {
      const payload = probePayload(context, 'user.created', { ageSeconds: STALE_SECONDS });
      return [signedDelivery(context, `user.created signed ${STALE_SECONDS} s ago`, payload, 'compact', { signedAgo: STALE_SECONDS })];
    },
  },
  refuseCase(
    'body-changed',
    'user.created whose body was changed after signing (another e-mail)',
    {
      why: 'a handler that does not check the signature against the body it received runs whatever a man in the middle, or a replayed request, put in it.',
      fix: 'compute the HMAC over the body you received and compare; a mismatch is a 400.',
      docs: 'docs/listen.md#probe-body-changed',
    },
    (delivery) => {
      const body = delivery.body.replace(SAMPLE_EMAIL, 'attacker@example.com');
      if (body === delivery.body) throw new Error(`the user.created sample no longer holds ${SAMPLE_EMAIL}`);
      return { ...delivery, body };
    },
  ),
  refuseCase(
    'timestamp-changed',
    'user.created signed 30 s ago whose X-Service-Timestamp was then set to now',
    {
      why: 'the timestamp is signed so that an old delivery cannot be made fresh: a handler that checks it without the signature can be replayed.',
      fix: 'use the X-Service-Timestamp header in the signed string `<timestamp>.<body>`, so that changing it breaks the signature.',
      docs: 'docs/listen.md#probe-timestamp-changed',
    },
    (delivery, context) => {
      const signed = signedHeaders(context, delivery.eventId, delivery.body, { signedAgo: 30 });
      return { ...delivery, headers: { ...signed, [TIMESTAMP]: String(context.nowSeconds) } };
    },
  ),
  {
    id: 'refuse.future-timestamp',
    expect: 'refuse',
    severity: 'warning',
    summary: `user.created validly signed ${FUTURE_SECONDS} s in the future`,
    why: 'the spec only asks to refuse old timestamps, but one an hour ahead means a wrong clock or a delivery made to be replayed later; svc webhook listen refuses both.',
    fix: `refuse a timestamp more than ${SIGNATURE_TOLERANCE_SECONDS} s from now either way: compare Math.abs(now - timestamp).`,
    docs: 'docs/listen.md#probe-future-timestamp',
    build: (context) => {
      const payload = probePayload(context, 'user.created');
      return [signedDelivery(context, `user.created signed ${FUTURE_SECONDS} s ahead`, payload, 'compact', { signedAgo: -FUTURE_SECONDS })];
    },
  },
  {
    id: 'timing.answer-in-time',
    expect: 'accept',
    severity: 'required',
    summary: "user.created, validly signed, given the spec's whole answer limit",
    why: 'a delivery not answered within 30 s is a failed attempt even if your work then succeeds: the sender retries it, and after five it sits in the DLQ.',
    fix: 'answer 200 as soon as the delivery is verified and recorded; do the work afterwards (a queue, a job, or at least after res.end()).',
    docs: 'docs/listen.md#probe-timing',
    fullTimeout: true,
    build: (context) => [signedDelivery(context, 'user.created, signed now', probePayload(context, 'user.created'))],
  },
];

/** The groups a case id starts with (`event`, `refuse`, …): --only and --skip take them too. */
export const PROBE_GROUPS: readonly string[] = [...new Set(PROBE_CASES.map((c) => c.id.split('.')[0]!))];
