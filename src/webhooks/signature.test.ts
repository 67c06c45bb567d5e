import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDelivery, verifySignature, WebhookVerificationError, type VerifyInput } from './signature.js';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const body = '{"id":"evt_1","type":"user.created"}';
const now = 1_800_000_000;

function valid(): VerifyInput {
  const headers = signDelivery(secret, 'evt_1', body, now);
  return { secret, body, signature: headers['X-Service-Signature'], timestamp: headers['X-Service-Timestamp'], nowSeconds: now };
}

describe('webhook signature', () => {
  it('matches an independent HMAC over "<timestamp>.<body>"', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(valid().signature).toBe(`sha256=${expected}`);
    expect(verifySignature(valid())).toBe(now);
  });

  it.each<[string, Partial<VerifyInput>, string]>([
    ['a tampered body', { body: body.replace('user', 'usr') }, 'signature_mismatch'],
    ['a wrong secret', { secret: 'whsec_other' }, 'signature_mismatch'],
    ['a stale timestamp', { nowSeconds: now + 301 }, 'timestamp_too_old'],
    ['a future timestamp', { nowSeconds: now - 301 }, 'timestamp_in_future'],
    ['no signature', { signature: undefined }, 'missing_signature'],
    ['no timestamp', { timestamp: '' }, 'missing_timestamp'],
    ['a millisecond timestamp', { timestamp: String(now * 1000) }, 'malformed_timestamp'],
    ['uppercase hex', { signature: 'sha256=' + 'A'.repeat(64) }, 'malformed_signature'],
    ['no sha256= prefix', { signature: 'a'.repeat(64) }, 'malformed_signature'],
  ])('rejects %s', (_name, change, reason) => {
    const input = { ...valid(), ...change };
    expect(() => verifySignature(input)).toThrow(WebhookVerificationError);
    try {
      verifySignature(input);
    } catch (error) {
      expect((error as WebhookVerificationError).reason).toBe(reason);
    }
  });

  it('accepts a timestamp exactly at the tolerance', () => {
    expect(verifySignature({ ...valid(), nowSeconds: now + 300 })).toBe(now);
  });
});
