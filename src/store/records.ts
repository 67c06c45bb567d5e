/**
 * The records the store keeps. These are storage shapes (with tenant ids, hashes and
 * encrypted material), not API shapes: the API's shapes live in src/schemas and the
 * services map one onto the other. Each area's records have a file of their own; this one
 * names them all, with the collection that holds each, and is the module the rest imports.
 */
import type { CheckoutSessionRecord, PortalSessionRecord, UsageRecord } from './billing-records.js';
import type {
  GuestRecord,
  MfaChallengeRecord,
  MfaRecord,
  PasskeyRecord,
  TelegramAccountRecord,
  UserRecord,
  UserSessionRecord,
  WebauthnChallengeRecord,
} from './identity-records.js';
import type { ContractRecord, DelegatedSessionRecord, TransactionRecord } from './ledger-records.js';
import type { ApiKeyRecord, AppRecord, CustomDomainRecord, TenantRecord } from './tenant-records.js';
import type { KeyShareRecord, StoredWalletRecord } from './wallet-records.js';
import type { DeliveryRecord, EventRecord, WebhookRecord } from './webhook-records.js';

export type * from './billing-records.js';
export type * from './identity-records.js';
export type * from './ledger-records.js';
export type * from './tenant-records.js';
export type * from './wallet-records.js';
export type * from './webhook-records.js';

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
