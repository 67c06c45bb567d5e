/**
 * A software authenticator for the passkey checks: an ES256 (P-256) credential made with
 * node:crypto, attestation "none", and the few CBOR shapes WebAuthn needs (RFC 8949 maps of
 * small integers, text and byte strings; RFC 9052 COSE EC2 key). Enough to register and
 * sign in as a browser would, so the suite can drive the ceremony end to end.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** Canonical enough for WebAuthn: map keys are written in the order given (callers give them sorted). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value, 'utf8')]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.byteLength), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export interface Authenticator {
  credentialId: Buffer;
  privateKey: KeyObject;
  counter: number;
}

export function newAuthenticator(): Authenticator {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { credentialId: randomBytes(32), privateKey, counter: 0 };
}

function coseKey(authenticator: Authenticator): Buffer {
  const jwk = authenticator.privateKey.export({ format: 'jwk' });
  const x = Buffer.from(String(jwk.x), 'base64url');
  const y = Buffer.from(String(jwk.y), 'base64url');
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, x],
      [-3, y],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** The RegistrationResponseJSON a browser would send for these creation options. */
export function attest(authenticator: Authenticator, options: { challenge: string; rpId: string; origin: string }) {
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(authenticator.credentialId.length);
  const authData = Buffer.concat([
    sha256(options.rpId),
    Buffer.from([0x45]),
    Buffer.alloc(4),
    Buffer.alloc(16),
    idLength,
    authenticator.credentialId,
    coseKey(authenticator),
  ]);
  const attestationObject = cbor(
    new Map<Cbor, Cbor>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  const id = b64url(authenticator.credentialId);
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientData('webauthn.create', options.challenge, options.origin)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}

/** The AuthenticationResponseJSON a browser would send; the counter goes up unless told not to. */
export function assert(authenticator: Authenticator, options: { challenge: string; rpId: string; origin: string; userHandle?: string; keepCounter?: boolean }) {
  if (options.keepCounter !== true) authenticator.counter += 1;
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(authenticator.counter);
  const authenticatorData = Buffer.concat([sha256(options.rpId), Buffer.from([0x05]), counter]);
  const json = clientData('webauthn.get', options.challenge, options.origin);
  const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(json)]), authenticator.privateKey);
  const id = b64url(authenticator.credentialId);
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(json),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      ...(options.userHandle ? { userHandle: options.userHandle } : {}),
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
