/**
 * Stands in for shamir-secret-sharing's own `shamir-secret-sharing/csprng` in the bundle
 * (scripts/bundle.mjs): the same contract, its bytes drawn from the pooled CSPRNG. The
 * library draws one byte per byte of secret, each a call into OpenSSL of its own.
 */
import { fillRandom } from '../entropy.js';

export function getRandomBytes(numBytes: number): Uint8Array {
  return fillRandom(new Uint8Array(numBytes));
}
