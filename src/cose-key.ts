/**
 * A passkey's public key as WebAuthn stores it, a COSE_Key (RFC 9052, 9053): a CBOR map of
 * small integer labels to integers and byte strings. Read here with node:crypto alone, so a
 * fixture's passkey is checked when the fixture is, without loading @simplewebauthn/server
 * (half a second, which passkeys.ts defers to the first passkey call).
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';

/** The algorithms the emulator registers passkeys with (services/passkeys.ts SUPPORTED_ALGORITHMS). */
const ALGORITHMS: Record<number, string> = { [-7]: 'ES256', [-8]: 'EdDSA', [-257]: 'RS256' };

type Value = number | Buffer | string;

class CoseKeyError extends Error {}

/** Reads one CBOR item of the kinds a COSE key holds; answers it and where the next begins. */
function readItem(bytes: Buffer, at: number): [Value | Map<Value, Value>, number] {
  if (at >= bytes.length) throw new CoseKeyError('it ends before its last field');
  const major = bytes[at]! >> 5;
  const info = bytes[at]! & 0x1f;
  let length: number;
  let next = at + 1;
  if (info < 24) length = info;
  else if (info <= 26) {
    const size = 1 << (info - 24);
    if (next + size > bytes.length) throw new CoseKeyError('it ends before its last field');
    length = bytes.readUIntBE(next, size);
    next += size;
  } else throw new CoseKeyError('it holds a CBOR item a COSE key has no use for');
  switch (major) {
    case 0:
      return [length, next];
    case 1:
      return [-1 - length, next];
    case 2:
    case 3: {
      if (next + length > bytes.length) throw new CoseKeyError('it ends before its last field');
      const raw = bytes.subarray(next, next + length);
      return [major === 2 ? Buffer.from(raw) : raw.toString('utf8'), next + length];
    }
    case 5: {
      const map = new Map<Value, Value>();
      for (let i = 0; i < length; i++) {
        const [key, afterKey] = readItem(bytes, next);
        const [value, afterValue] = readItem(bytes, afterKey);
        if (key instanceof Map || value instanceof Map) throw new CoseKeyError('it nests a map');
        map.set(key, value);
        next = afterValue;
      }
      return [map, next];
    }
    default:
      throw new CoseKeyError('it holds a CBOR item a COSE key has no use for');
  }
}

function bytesAt(map: Map<Value, Value>, label: number, what: string): string {
  const value = map.get(label);
  if (!Buffer.isBuffer(value)) throw new CoseKeyError(`it has no ${what} (label ${label})`);
  return value.toString('base64url');
}

/** The JWK a COSE key stands for, by its key type and curve. */
function jwkOf(map: Map<Value, Value>, alg: number): JsonWebKey {
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
    const [map, end] = readItem(bytes, 0);
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
