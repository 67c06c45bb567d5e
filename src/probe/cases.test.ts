/**
 * The probe's cases hold to svc's own rules: what a case wants accepted passes the checks of
 * `svc webhook listen` (receiver/checks.ts) and its event's payload schema, and what it wants
 * refused fails those checks for the reason the case is named after.
 */
import { describe, expect, it } from 'vitest';
import { checkDelivery } from '../receiver/checks.js';
import { EVENT_PAYLOADS } from '../schemas/events.js';
import { EVENT_TYPES, type EventType } from '../schemas/words.js';
import { PROBE_CASES } from './cases.js';
import { selectCases, unknownSelectors } from './run.js';
import type { BuildContext, ProbeDelivery } from './types.js';

const context: BuildContext = { secret: 'whsec_Probe000000000000000000000000001', apiVersion: '2026-11-01', nowSeconds: Math.floor(Date.now() / 1000) };

const lower = (headers: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

function check(delivery: ProbeDelivery) {
  return checkDelivery({
    headers: lower(delivery.headers),
    body: Buffer.from(delivery.body),
    secret: context.secret,
    toleranceSeconds: 300,
    nowSeconds: context.nowSeconds,
  });
}

/** The reason svc's receiver gives each refused case. */
const REFUSED_FOR: Record<string, string> = {
  'refuse.unsigned': 'missing_signature',
  'refuse.wrong-secret': 'signature_mismatch',
  'refuse.body-only-signature': 'signature_mismatch',
  'refuse.malformed-signature': 'malformed_signature',
  'refuse.stale-timestamp': 'timestamp_too_old',
  'refuse.body-changed': 'signature_mismatch',
  'refuse.timestamp-changed': 'signature_mismatch',
  'refuse.future-timestamp': 'timestamp_in_future',
};

describe('the probe cases', () => {
  const accepted = PROBE_CASES.filter((c) => c.expect === 'accept');
  const refused = PROBE_CASES.filter((c) => c.expect === 'refuse');

  it('cover every event type of the document, the raw-body forms, repeats, order, each forgery and the time limit', () => {
    expect(PROBE_CASES.filter((c) => c.id.startsWith('event.')).map((c) => c.id)).toEqual(EVENT_TYPES.map((type) => `event.${type}`));
    expect(refused.map((c) => c.id).sort()).toEqual(Object.keys(REFUSED_FOR).sort());
    expect(PROBE_CASES.filter((c) => c.fullTimeout === true).map((c) => c.id)).toEqual(['timing.answer-in-time']);
    expect(new Set(PROBE_CASES.map((c) => c.id)).size).toBe(PROBE_CASES.length);
  });

  it.for(accepted.map((c) => c.id))('%s: every delivery passes svc webhook listen’s checks and its payload schema', (id) => {
    for (const delivery of PROBE_CASES.find((c) => c.id === id)!.build(context)) {
      expect(check(delivery).failures, delivery.sent).toEqual([]);
      const payload = EVENT_PAYLOADS[delivery.eventType as EventType].safeParse(JSON.parse(delivery.body));
      expect(payload.success, `${delivery.sent}: ${payload.error?.message}`).toBe(true);
      expect(delivery.headers['X-Service-Event-Id']).toBe(delivery.eventId);
      expect(delivery.headers['Content-Type']).toBe('application/json');
    }
  });

  it.for(refused.map((c) => c.id))('%s: svc webhook listen refuses it for the reason the case is named after', (id) => {
    const [delivery] = PROBE_CASES.find((c) => c.id === id)!.build(context);
    expect(check(delivery!).failures[0]?.reason).toBe(REFUSED_FOR[id]);
  });

  it('writes the raw-body forms in bytes that re-serialising changes, and the same value', () => {
    const body = (id: string): string => PROBE_CASES.find((c) => c.id === id)!.build(context)[0]!.body;
    for (const id of ['raw-body.spaces', 'raw-body.escapes']) expect(JSON.stringify(JSON.parse(body(id)))).not.toBe(body(id));
    expect(body('raw-body.escapes')).toContain('\\u00e9');
    expect(body('raw-body.escapes')).toContain('\\/');
    expect(JSON.parse(body('raw-body.escapes')).data.reason).toBe('contrat archivé: see https://example.com/tx/2');
    expect(Object.keys(JSON.parse(body('raw-body.key-order')))).toEqual(['data', 'api_version', 'created_at', 'type', 'id']);
  });

  it('sends the duplicate as one event twice and the out-of-order pair newest first', () => {
    const [first, again] = PROBE_CASES.find((c) => c.id === 'delivery.duplicate')!.build(context);
    expect(again!.body).toBe(first!.body);
    expect(again!.eventId).toBe(first!.eventId);
    const [newer, older] = PROBE_CASES.find((c) => c.id === 'delivery.out-of-order')!.build(context);
    expect(JSON.parse(older!.body).created_at < JSON.parse(newer!.body).created_at).toBe(true);
    expect(Number(older!.headers['X-Service-Timestamp'])).toBeLessThan(Number(newer!.headers['X-Service-Timestamp']));
  });

  it('selects by id or group, and names what matches nothing', () => {
    expect(selectCases(['refuse'], ['refuse.future-timestamp']).map((c) => c.id)).toEqual(
      Object.keys(REFUSED_FOR).filter((id) => id !== 'refuse.future-timestamp'),
    );
    expect(selectCases(['event.tx.failed', 'timing']).map((c) => c.id)).toEqual(['event.tx.failed', 'timing.answer-in-time']);
    expect(unknownSelectors(['refuse', 'event.user.created', 'refuse.unsigend', 'ref'])).toEqual(['refuse.unsigend', 'ref']);
  });
});
