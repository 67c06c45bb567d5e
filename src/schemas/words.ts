/**
 * The contract's words: the enumerations the API answers and accepts, which the store, the
 * services, the dashboard, the client and the conformance suite all use. They live here, at the
 * bottom of the house with no imports, so that every layer can take them from the contract.
 */

/** A user's trust level (D7's `trust_level` filter). */
export const TRUST_LEVELS = ['guest', 'basic', 'verified', 'trusted'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];

/** A tenant's plan (D13's payment provider sells them; D16 sets their limits). */
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** The event types of D8. */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'guest.created',
  'guest.converted',
  'wallet.created',
  'tx.completed',
  'tx.failed',
  'session.revoked',
  'mfa.enabled',
  'mfa.disabled',
  'api_key.created',
  'api_key.revoked',
  'domain.verified',
  'billing.subscription.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A webhook's `events` entry that subscribes to every type. */
export const ALL_EVENTS = '*';

/** A delegated session's `permissions` entry that matches any template, or any choice. */
export const ANY_TEMPLATE_OR_CHOICE = '*';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
