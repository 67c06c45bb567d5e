/**
 * The records of a tenant and what it sets up: its settings, API keys, apps and custom domain.
 * Storage shapes, not API shapes (records.ts says which is which).
 */
import type { Plan } from '../schemas/words.js';

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
