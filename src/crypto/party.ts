/**
 * Parties and wallet keys (D13): an Ed25519 key pair per user, a Canton-style
 * party id made from its public key, and the private key split 2-of-3 with Shamir's
 * scheme at once, so it is never stored whole.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { combine, split } from 'shamir-secret-sharing';
import { randomBytes } from '../entropy.js';

/** Canton's hash purpose for a public-key fingerprint. */
export const PUBLIC_KEY_FINGERPRINT_PURPOSE = 12;
/** A SHA-256 multihash prefix: 0x12 (sha2-256), 0x20 (32 bytes). */
export const SHA256_MULTIHASH_PREFIX = '1220';
export const SHARES_TOTAL = 3;
export const SHARES_THRESHOLD = 2;

export interface PartyKeys {
  partyId: string;
  /** Raw 32-byte public key. */
  publicKey: Buffer;
  /** The three Shamir shares of the 32-byte seed. */
  shares: Uint8Array[];
}

/** `<hint>::1220<hex>` where hex = SHA-256(uint32be(12) ‖ raw public key). */
export function partyIdFor(hint: string, rawPublicKey: Uint8Array): string {
  const purpose = Buffer.alloc(4);
  purpose.writeUInt32BE(PUBLIC_KEY_FINGERPRINT_PURPOSE);
  const fingerprint = createHash('sha256').update(purpose).update(rawPublicKey).digest('hex');
  return `${partyHint(hint)}::${SHA256_MULTIHASH_PREFIX}${fingerprint}`;
}

/** A party hint Canton accepts: letters, digits, `-` and `_`, at most 64 characters. */
export function partyHint(text: string): string {
  const hint = text
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return hint.length > 0 ? hint : 'party';
}

/** Makes a key pair, its party id, and the 2-of-3 shares of its private seed. */
export async function createPartyKeys(hint: string): Promise<PartyKeys> {
  // An Ed25519 private key is 32 random bytes. Generating it ourselves, rather than with
  // generateKeyPairSync + JWK export, also avoids a Node 20 deadlock: a GC that finalises a
  // KeyGenJob while ExportJWK holds the key mutex hangs the process (seen under load).
  const seed = randomBytes(32);
  const rawPublic = publicKeyFromSeed(seed);
  const shares = await split(new Uint8Array(seed), SHARES_TOTAL, SHARES_THRESHOLD);
  seed.fill(0);
  return { partyId: partyIdFor(hint, rawPublic), publicKey: rawPublic, shares };
}

/** Combines shares into the 32-byte seed and derives its raw public key. */
export async function recoverKey(shares: Uint8Array[]): Promise<{ seed: Buffer; publicKey: Buffer }> {
  const seed = Buffer.from(await combine(shares.map((share) => new Uint8Array(share))));
  return { seed, publicKey: publicKeyFromSeed(seed) };
}

/**
 * The raw public key of a 32-byte Ed25519 seed. Imported as a JWK (OpenSSL's raw-key path,
 * ~40 µs) rather than as PKCS#8 DER, whose decoder costs ~400 µs and made key generation the
 * bulk of POST /users. Node reads only `d` of a private OKP JWK; `x` must merely be a string.
 */
export function publicKeyFromSeed(seed: Buffer): Buffer {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: '' }, format: 'jwk' });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('Ed25519 public key export gave no x');
  return Buffer.from(x, 'base64url');
}
