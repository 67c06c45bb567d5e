/**
 * The records of wallets (D13): a user's wallet and its key shares, and the sealed form every
 * secret takes at rest.
 */

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
