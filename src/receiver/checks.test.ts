import { describe, expect, it } from 'vitest';
import { signDelivery } from '../webhooks/signature.js';
import { checkDelivery, type DeliveryInput, type FailureReason } from './checks.js';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const now = 1_800_000_000;
const payload = {
  id: 'evt_4f8Qm2xZb7LkP1sT9vRa',
  type: 'user.created',
  created_at: '2026-11-21T10:00:00.000Z',
  api_version: '2026-11-01',
  data: { userId: 'usr_1', email: 'ada@example.com', partyId: 'ada::1220' + 'ab'.repeat(32) },
};

/** A validly signed delivery of `body`, its headers lowercased as node:http gives them. */
function delivery(body: unknown = payload, options: { id?: string; timestamp?: number; key?: string } = {}): DeliveryInput {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const signed = signDelivery(options.key ?? secret, options.id ?? payload.id, text, options.timestamp ?? now);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
  return { headers, body: Buffer.from(text), secret, toleranceSeconds: 300, nowSeconds: now };
}

function without(input: DeliveryInput, header: string): DeliveryInput {
  const headers = { ...input.headers };
  delete headers[header];
  return { ...input, headers };
}

describe('checkDelivery', () => {
  it('passes a validly signed user.created delivery', () => {
    const result = checkDelivery(delivery());
    expect(result).toEqual({ ok: true, failures: [], eventId: payload.id, eventType: 'user.created', signedAt: now });
  });

  const tampered = { ...delivery(), body: Buffer.from(JSON.stringify({ ...payload, data: { ...payload.data, email: 'eve@example.com' } })) };

  it.each<[string, DeliveryInput, FailureReason[]]>([
    ['a tampered body', tampered, ['signature_mismatch']],
    ['a wrong secret', delivery(payload, { key: 'whsec_someoneElsesSecret00000000000000' }), ['signature_mismatch']],
    ['a stale timestamp', delivery(payload, { timestamp: now - 301 }), ['timestamp_too_old']],
    ['a timestamp from the future', delivery(payload, { timestamp: now + 301 }), ['timestamp_in_future']],
    ['no signature header', without(delivery(), 'x-service-signature'), ['missing_signature']],
    ['no timestamp header', without(delivery(), 'x-service-timestamp'), ['missing_timestamp']],
    ['no event id header', without(delivery(), 'x-service-event-id'), ['missing_event_id']],
    ["an event id other than the body's", delivery(payload, { id: 'evt_other' }), ['event_id_mismatch']],
    ['no content type', without(delivery(), 'content-type'), ['wrong_content_type']],
    ['a text/plain content type', { ...delivery(), headers: { ...delivery().headers, 'content-type': 'text/plain' } }, ['wrong_content_type']],
    ['a body that is not JSON', delivery('id=evt_1'), ['invalid_json']],
    ['an id without evt_', delivery({ ...payload, id: 'usr_1' }, { id: 'usr_1' }), ['invalid_payload']],
    ['an undotted type', delivery({ ...payload, type: 'created' }), ['invalid_payload']],
    ['created_at without milliseconds', delivery({ ...payload, created_at: '2026-11-21T10:00:00Z' }), ['invalid_payload']],
    ['a non-date api_version', delivery({ ...payload, api_version: 'v1' }), ['invalid_payload']],
    ['data that is not an object', delivery({ ...payload, data: 'x' }), ['invalid_payload']],
    ['user.created without partyId', delivery({ ...payload, data: { userId: 'usr_1', email: 'ada@example.com' } }), ['invalid_event_data']],
    ['user.created with a bad email', delivery({ ...payload, data: { ...payload.data, email: 'not-an-email' } }), ['invalid_event_data']],
    // The spec's payload holds email as a string: null (a user without one) is refused, not excused.
    ['user.created with email null', delivery({ ...payload, data: { ...payload.data, email: null } }), ['invalid_event_data']],
  ])('rejects %s', (_name, input, reasons) => {
    const result = checkDelivery(input);
    expect(result.ok).toBe(false);
    expect(result.failures.map((f) => f.reason)).toEqual(reasons);
    expect(result.failures.every((f) => f.message.length > 0)).toBe(true);
  });

  it('accepts other event types with any data object, and application/json with a charset', () => {
    const input = delivery({ ...payload, type: 'tx.completed', data: { transactionId: 'tx_1' } });
    expect(checkDelivery({ ...input, headers: { ...input.headers, 'content-type': 'application/json; charset=utf-8' } }).ok).toBe(true);
  });

  it('reports every failure of a delivery, the signature first', () => {
    const input = without(delivery({ ...payload, data: { userId: 'usr_1' } }, { key: 'whsec_wrong' }), 'x-service-event-id');
    const result = checkDelivery(input);
    expect(result.failures.map((f) => f.reason)).toEqual(['signature_mismatch', 'missing_event_id', 'invalid_event_data']);
    expect(result.failures[2]!.message).toContain('data.email: missing');
  });

  it('checks the raw bytes: the same JSON re-serialised with other spacing fails', () => {
    const input = delivery();
    const reformatted = Buffer.from(JSON.stringify(payload, null, 2));
    expect(checkDelivery({ ...input, body: reformatted }).failures.map((f) => f.reason)).toEqual(['signature_mismatch']);
  });

  it('needs no event-id or content-type header for a captured body', () => {
    const input = without(without(delivery(), 'x-service-event-id'), 'content-type');
    expect(checkDelivery({ ...input, captured: true }).ok).toBe(true);
  });

  it('takes the tolerance it is given', () => {
    const old = delivery(payload, { timestamp: now - 100 });
    expect(checkDelivery({ ...old, toleranceSeconds: 60 }).failures[0]?.reason).toBe('timestamp_too_old');
    expect(checkDelivery({ ...old, toleranceSeconds: 120 }).ok).toBe(true);
  });
});
