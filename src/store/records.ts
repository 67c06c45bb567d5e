/**
 * The records the store keeps. These are storage shapes (with tenant ids, hashes and
 * encrypted material), not API shapes: the API's shapes live in src/schemas and the
 * services map one onto the other.
 */
import type { JsonObject, LedgerCommand, LedgerEvent, LedgerRejection } from '../ledger/types.js';
import type { Plan, TrustLevel } from '../schemas/words.js';

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

/**
 * An AES-256-GCM sealed value as one string, `<iv>.<tag>.<ciphertext>` in base64url: a
 * string rather than an object keeps every user's wallet small in db.json and in memory.
 */
export type Sealed = string;

/** The object form earlier data dirs hold; still read, never written. */
export interface LegacySealed {
  iv: string;
  tag: string;
  data: string;
}

/**
 * A user's pre-generated wallet (D13): the key pair is made with the user, the private key
 * split 2-of-3 at once; share 1 stays as the wallet's key share, shares 2 and 3 wait sealed
 * until the user claims the wallet. Its party id is the user's (UserRecord.partyId).
 */
export interface WalletRecord {
  id: string;
  tenantId: string;
  userId: string;
  /** Raw 32-byte Ed25519 public key, hex. */
  publicKey: string;
  /**
   * The key shares, sealed together as one value (one small string per wallet rather than
   * three): shares 1, 2 and 3 concatenated (they are the same length) until the claim,
   * share 1 alone after it.
   */
  shares: Sealed;
  claimedAt: string | null;
  createdAt: string;
}

/** The wallet layout earlier data dirs hold: still read (and claimed in place), never written. */
export interface LegacyWalletRecord {
  id: string;
  tenantId: string;
  userId: string;
  partyId: string;
  publicKey: string;
  serverShare: Sealed | LegacySealed;
  pendingShares: Array<Sealed | LegacySealed>;
  claimedAt: string | null;
  createdAt: string;
}

/** A wallet as the store may hold it: either layout. */
export type StoredWalletRecord = WalletRecord | LegacyWalletRecord;

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
  /**
   * When its webhook was deleted: the delivery is kept for its history (and, if undelivered, in
   * the DLQ) but has nowhere to go. Absent in stores written before this field.
   */
  orphanedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A user's sign-in session (D4): an opaque bearer token, stored only as its SHA-256 hash. */
export interface UserSessionRecord {
  id: string;
  tenantId: string;
  userId: string;
  /** How the user signed in; one record per sign-in (analytics counts them). */
  method: 'passkey' | 'telegram' | 'guest' | 'convert';
  /** SHA-256 hex of the token `st_…`. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  endedAt: string | null;
  /** Until when an MFA verification counts as fresh for this session (D5). */
  mfaFreshUntil: string | null;
}

/** A guest session (D15): a guest user and its session, until it expires, ends or is converted. */
export interface GuestRecord {
  id: string;
  tenantId: string;
  userId: string;
  sessionId: string;
  createdAt: string;
  expiresAt: string;
  endedAt: string | null;
  convertedAt: string | null;
}

/** A user's TOTP factor (D5); id = the user's id. The secret is sealed at rest. */
export interface MfaRecord {
  id: string;
  tenantId: string;
  secret: Sealed;
  status: 'pending' | 'enabled';
  /** SHA-256 hex of each one-time recovery code, with when it was used. */
  recoveryCodes: Array<{ hash: string; usedAt: string | null }>;
  /** Wrong codes in a row; the fifth locks MFA until lockedUntil. */
  failedAttempts: number;
  lockedUntil: string | null;
  createdAt: string;
  enabledAt: string | null;
}

/** An open MFA challenge (D5): 5 minutes, single use. */
export interface MfaChallengeRecord {
  id: string;
  tenantId: string;
  userId: string;
  sessionId: string;
  expiresAt: string;
  usedAt: string | null;
}

/** A registered WebAuthn credential. */
export interface PasskeyRecord {
  id: string;
  tenantId: string;
  userId: string;
  /** The credential id, base64url, as the authenticator reports it. */
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** The WebAuthn user handle (base64url) the credential was made for. */
  userHandle: string;
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A WebAuthn challenge handed out by register-options or login-options; single use, 5 minutes. */
export interface WebauthnChallengeRecord {
  id: string;
  tenantId: string;
  kind: 'registration' | 'authentication';
  /** The challenge, base64url. */
  challenge: string;
  /** Registration: the email and name to register; login: the user asked for, if any. */
  email: string | null;
  name: string | null;
  userId: string | null;
  userHandle: string | null;
  expiresAt: string;
  usedAt: string | null;
}

/** A Telegram account linked to a user, found by the tenant and the Telegram user id. */
export interface TelegramAccountRecord {
  id: string;
  tenantId: string;
  userId: string;
  telegramId: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  photoUrl: string | null;
  createdAt: string;
  lastAuthAt: string;
}

/** A key share a client stored for one of its wallets (spec: MPC key management); sealed at rest. */
export interface KeyShareRecord {
  id: string;
  tenantId: string;
  userId: string;
  walletId: string;
  /** The client's number for the share; 1 is the wallet's own (server) share, so never stored here. */
  shareIndex: number;
  label: string | null;
  /** The raw shamir-secret-sharing share bytes (D13). */
  share: Sealed;
  createdAt: string;
}

/** A contract on the embedded ledger (D13); `id` is its contractId. */
export interface ContractRecord {
  id: string;
  tenantId: string;
  templateId: string;
  payload: JsonObject;
  signatories: string[];
  createdAt: string;
  /** The update that created it, and the one that archived it (null while active). */
  createdBy: string;
  archivedAt: string | null;
  archivedBy: string | null;
}

/** One command a delegated session executed, and what the ledger made of it. */
export interface TransactionRecord {
  id: string;
  tenantId: string;
  sessionId: string;
  userId: string;
  walletId: string;
  partyId: string;
  command: LedgerCommand;
  status: 'completed' | 'failed';
  /** The ledger update; null when the ledger rejected the command. */
  updateId: string | null;
  events: LedgerEvent[];
  rejection: LedgerRejection | null;
  createdAt: string;
}

/** A delegated session (spec part 4): a token that may run some commands for a wallet's party. */
export interface DelegatedSessionRecord {
  id: string;
  tenantId: string;
  userId: string;
  walletId: string;
  partyId: string;
  /** SHA-256 hex of the token `dst_…`. */
  tokenHash: string;
  permissions: { templates: string[]; choices: string[] };
  maxCommands: number | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  usage: { commands: number; completed: number; failed: number; denied: number; queries: number };
  lastUsedAt: string | null;
}

/** Every collection of the store and the record it holds. */
export interface CollectionTypes {
  tenants: TenantRecord;
  apiKeys: ApiKeyRecord;
  apps: AppRecord;
  users: UserRecord;
  wallets: StoredWalletRecord;
  events: EventRecord;
  webhooks: WebhookRecord;
  deliveries: DeliveryRecord;
  customDomains: CustomDomainRecord;
  checkoutSessions: CheckoutSessionRecord;
  portalSessions: PortalSessionRecord;
  usage: UsageRecord;
  sessions: UserSessionRecord;
  guests: GuestRecord;
  mfa: MfaRecord;
  mfaChallenges: MfaChallengeRecord;
  passkeys: PasskeyRecord;
  webauthnChallenges: WebauthnChallengeRecord;
  telegramAccounts: TelegramAccountRecord;
  keyShares: KeyShareRecord;
  contracts: ContractRecord;
  transactions: TransactionRecord;
  delegatedSessions: DelegatedSessionRecord;
}

export type CollectionName = keyof CollectionTypes;

export const COLLECTION_NAMES = [
  'tenants',
  'apiKeys',
  'apps',
  'users',
  'wallets',
  'events',
  'webhooks',
  'deliveries',
  'customDomains',
  'checkoutSessions',
  'portalSessions',
  'usage',
  'sessions',
  'guests',
  'mfa',
  'mfaChallenges',
  'passkeys',
  'webauthnChallenges',
  'telegramAccounts',
  'keyShares',
  'contracts',
  'transactions',
  'delegatedSessions',
] as const satisfies readonly CollectionName[];
