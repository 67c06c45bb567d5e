/**
 * The records of users and how they sign in: sessions, guests, MFA, passkeys and their
 * challenges, Telegram accounts.
 */
import type { TrustLevel } from '../schemas/words.js';
import type { Sealed } from './wallet-records.js';

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
