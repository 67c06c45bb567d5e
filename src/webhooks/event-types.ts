/** A realistic sample of each event type's `data` (D8), for test deliveries and `svc trigger`. */

import type { EventType } from '../schemas/words.js';

const PARTY = 'sample-user::1220' + '5a'.repeat(32);

/** Sample `data` per type, shaped like what the emulator emits for real. */
export function sampleEventData(type: EventType): Record<string, unknown> {
  switch (type) {
    case 'user.created':
      return { userId: 'usr_SampLe0000000000000001', email: 'sample.user@example.com', partyId: PARTY };
    case 'user.updated':
      return { userId: 'usr_SampLe0000000000000001', changes: ['trustLevel'], trustLevel: 'verified' };
    case 'guest.created':
      return { guestId: 'gst_SampLe0000000000000001', userId: 'usr_SampLe0000000000000002', expiresAt: '2026-11-22T10:00:00.000Z' };
    case 'guest.converted':
      return { guestId: 'gst_SampLe0000000000000001', userId: 'usr_SampLe0000000000000002', email: 'converted@example.com' };
    case 'wallet.created':
      return { walletId: 'wal_SampLe0000000000000001', userId: 'usr_SampLe0000000000000001', partyId: PARTY };
    case 'tx.completed':
      return {
        transactionId: 'tx_SampLe0000000000000001',
        sessionId: 'dsn_SampLe0000000000000001',
        updateId: 'upd_SampLe0000000000000001',
        partyId: PARTY,
        status: 'completed',
      };
    case 'tx.failed':
      return {
        transactionId: 'tx_SampLe0000000000000002',
        sessionId: 'dsn_SampLe0000000000000001',
        partyId: PARTY,
        status: 'failed',
        reason: 'contract is archived',
      };
    case 'session.revoked':
      return { sessionId: 'dsn_SampLe0000000000000001', kind: 'delegated' };
    case 'mfa.enabled':
    case 'mfa.disabled':
      return { userId: 'usr_SampLe0000000000000001', method: 'totp' };
    case 'api_key.created':
      return { apiKeyId: 'key_SampLe0000000000000001', name: 'sample', prefix: 'sk_test_Samp', last4: 'LE01' };
    case 'api_key.revoked':
      return { apiKeyId: 'key_SampLe0000000000000001', name: 'sample' };
    case 'domain.verified':
      return { domain: 'auth.example.com', verifiedAt: '2026-11-21T10:00:00.000Z' };
    case 'billing.subscription.updated':
      return { plan: 'enterprise', previousPlan: 'pro', checkoutId: 'cs_test_SampLe0000000000000001' };
  }
}
