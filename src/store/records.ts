/**
 * The records the store keeps. These are storage shapes (with tenant ids, hashes and
 * encrypted material), not API shapes: the API's shapes live in src/schemas and the
 * services map one onto the other.
 */

export type TrustLevel = 'guest' | 'basic' | 'verified' | 'trusted';
export const TRUST_LEVELS = ['guest', 'basic', 'verified', 'trusted'] as const;

export type Plan = 'free' | 'pro' | 'enterprise';
export const PLANS = ['free', 'pro', 'enterprise'] as const;

export interface TenantSettings {
  apiVersion: string;
  sessionTtl: string;
  guestTtl: string;
  mfaFreshness: string;
  webauthn: { rpId: string; rpName: string; origins: string[] };
  telegram: { botUsername: string; botToken: string | null };
}

export interface TenantRecord {
  id: string;
  name: string;
  plan: Plan;
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  name: string;
  /** SHA-256 of the key value, hex; the value itself is never stored (D3). */
  keyHash: string;
  prefix: string;
  last4: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface AppRecord {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  allowedOrigins: string[];
  createdAt: string;
  updatedAt: string;
}

export interface UserRecord {
  id: string;
  tenantId: string;
  email: string | null;
  name: string | null;
  trustLevel: TrustLevel;
  partyId: string;
  walletId: string;
  createdAt: string;
  updatedAt: string;
}

/** An AES-256-GCM sealed value: iv, tag and ciphertext, each base64. */
export interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

/**
 * A user's pre-generated wallet (D13): the key pair is made with the user, the private key
 * split 2-of-3 at once; share 1 stays as the wallet's key share, shares 2 and 3 wait sealed
 * until the user claims the wallet.
 */
export interface WalletRecord {
  id: string;
  tenantId: string;
  userId: string;
  partyId: string;
  /** Raw 32-byte Ed25519 public key, hex. */
  publicKey: string;
  serverShare: Sealed;
  pendingShares: Sealed[];
  claimedAt: string | null;
  createdAt: string;
}

export interface EventRecord {
  id: string;
  tenantId: string;
  type: string;
  created_at: string;
  api_version: string;
  data: Record<string, unknown>;
}

/** A tenant's custom domain (one per tenant) and the TXT record that proves it (D13). */
export interface CustomDomainRecord {
  id: string;
  tenantId: string;
  /** Lower-case host name without a trailing dot; unique across tenants. */
  domain: string;
  /** The value after `svc-verify=` in the TXT record `_svc-verify.<domain>`. */
  token: string;
  status: 'pending' | 'verified';
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A checkout at the emulated payment provider (D13): completing it changes the tenant's plan. */
export interface CheckoutSessionRecord {
  id: string;
  tenantId: string;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'canceled';
  expiresAt: string;
  completedAt: string | null;
  createdAt: string;
}

/** A billing portal session at the emulated payment provider (D13). */
export interface PortalSessionRecord {
  id: string;
  tenantId: string;
  returnUrl: string;
  expiresAt: string;
  createdAt: string;
}

/** API calls of one tenant on one UTC day of the emulator clock; id `<tenantId>:<YYYY-MM-DD>`. */
export interface UsageRecord {
  id: string;
  tenantId: string;
  date: string;
  apiCalls: number;
}

export interface WebhookRecord {
  id: string;
  tenantId: string;
  url: string;
  /** Subscribed event types; `*` subscribes to all (D8). */
  events: string[];
  description: string | null;
  enabled: boolean;
  /** The signing secret, sealed at rest; answered only on create and rotate. */
  secret: Sealed;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'dead';

/** One HTTP request of a delivery (D9). */
export interface AttemptRecord {
  /** Emulator time the attempt started. */
  at: string;
  /** The X-Service-Timestamp it was signed with (real Unix seconds). */
  signedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryRecord {
  id: string;
  tenantId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** pending: waiting for its first attempt (or a retry from the DLQ); failed: a retry is scheduled. */
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** Emulator time of the next attempt; null once succeeded or dead. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Every collection of the store and the record it holds. */
export interface CollectionTypes {
  tenants: TenantRecord;
  apiKeys: ApiKeyRecord;
  apps: AppRecord;
  users: UserRecord;
  wallets: WalletRecord;
  events: EventRecord;
  webhooks: WebhookRecord;
  deliveries: DeliveryRecord;
  customDomains: CustomDomainRecord;
  checkoutSessions: CheckoutSessionRecord;
  portalSessions: PortalSessionRecord;
  usage: UsageRecord;
}

export type CollectionName = keyof CollectionTypes;

export const COLLECTION_NAMES = ['tenants', 'apiKeys', 'apps', 'users', 'wallets', 'events', 'webhooks', 'deliveries', 'customDomains', 'checkoutSessions', 'portalSessions', 'usage'] as const satisfies readonly CollectionName[];
