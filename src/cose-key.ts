/**
 * A passkey's public key as WebAuthn stores it, a COSE_Key (RFC 9052, 9053): a CBOR map of
 * small integer labels to integers and byte strings. Decoded with tiny-cbor (the CBOR decoder
 * @simplewebauthn/server itself uses) and taken as a key by node:crypto, so a fixture's passkey
 * is checked when the fixture is, without loading @simplewebauthn/server (half a second, which
 * passkeys.ts defers to the first passkey call).
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { decodePartialCBOR, type CBORType } from '@levischuck/tiny-cbor';

/** The algorithms the emulator registers passkeys with (services/passkeys.ts SUPPORTED_ALGORITHMS). */
const ALGORITHMS: Record<number, string> = { [-7]: 'ES256', [-8]: 'EdDSA', [-257]: 'RS256' };

class CoseKeyError extends Error {}

type CoseMap = Map<string | number, CBORType>;

function bytesAt(map: CoseMap, label: number, what: string): string {
  const value = map.get(label);
  if (!(value instanceof Uint8Array)) throw new CoseKeyError(`it has no ${what} (label ${label})`);
  return Buffer.from(value).toString('base64url');
}

/** The JWK a COSE key stands for, by its key type and curve. */
function jwkOf(map: CoseMap, alg: number): JsonWebKey {
  const kty = map.get(1);
  if (alg === -7) {
    if (kty !== 2 || map.get(-1) !== 1) throw new CoseKeyError('ES256 (-7) takes an EC2 key (kty 2) on P-256 (crv 1)');
    return { kty: 'EC', crv: 'P-256', x: bytesAt(map, -2, 'x'), y: bytesAt(map, -3, 'y') };
  }
  if (alg === -8) {
    if (kty !== 1 || map.get(-1) !== 6) throw new CoseKeyError('EdDSA (-8) takes an OKP key (kty 1) on Ed25519 (crv 6)');
    return { kty: 'OKP', crv: 'Ed25519', x: bytesAt(map, -2, 'x') };
  }
  if (kty !== 3) throw new CoseKeyError('RS256 (-257) takes an RSA key (kty 3)');
  return { kty: 'RSA', n: bytesAt(map, -1, 'n'), e: bytesAt(map, -2, 'e') };
}

/**
 * What is wrong with a base64url COSE public key, or undefined when node:crypto takes it as a
 * key of one of the algorithms passkeys are made with (an EC point must lie on its curve).
 */
export function coseKeyProblem(base64url: string): string | undefined {
  try {
    const bytes = Buffer.from(base64url, 'base64url');
    let map: CBORType;
    let end: number;
    try {
      // A copy: tiny-cbor reads from the start of the underlying buffer, and a Buffer may be a slice of a larger one.
      [map, end] = decodePartialCBOR(new Uint8Array(bytes), 0);
    } catch (error) {
      throw new CoseKeyError(`it ends before its last field, or is not well-formed CBOR (${(error as Error).message})`);
    }
    // tiny-cbor answers where the item would end even when that is past the bytes given.
    if (end > bytes.length) throw new CoseKeyError('it ends before its last field');
    if (!(map instanceof Map)) throw new CoseKeyError('it is not a CBOR map');
    if (end !== bytes.length) throw new CoseKeyError('bytes follow the map');
    const alg = map.get(3);
    if (typeof alg !== 'number' || ALGORITHMS[alg] === undefined) {
      throw new CoseKeyError(
        `its alg (label 3) is not one of ${Object.entries(ALGORITHMS)
          .map(([id, name]) => `${id} (${name})`)
          .join(', ')}`,
      );
    }
    const jwk = jwkOf(map, alg);
    try {
      createPublicKey({ key: jwk, format: 'jwk' });
    } catch {
      throw new CoseKeyError(`node:crypto does not take it as an ${ALGORITHMS[alg]} public key`);
    }
    return undefined;
  } catch (error) {
    if (error instanceof CoseKeyError) return `not a COSE public key: ${error.message}`;
    throw error;
  }
}
