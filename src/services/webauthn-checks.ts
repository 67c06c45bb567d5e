/**
 * The checks of a WebAuthn response that get their own error code, done before
 * @simplewebauthn/server verifies the whole response (which then catches anything else,
 * such as a bad signature, as webauthn_verification_failed): the challenge it answers, the
 * origin it was made on, the RP ID its authenticator data is bound to, and the counter.
 */
import { createHash } from 'node:crypto';
import { decodeAttestationObject, isoBase64URL, parseAuthenticatorData, type ParsedAuthenticatorData } from '@simplewebauthn/server/helpers';

/** The library's base64url codec, for passkeys.ts, which loads this module on first use. */
export { isoBase64URL };

type Bytes = ReturnType<typeof isoBase64URL.toBuffer>;
import { z } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import type { WebauthnChallengeRecord } from '../store/records.js';

const ClientData = z.object({ type: z.string(), challenge: z.string(), origin: z.string() });

function failed(why: string): ApiError {
  return new ApiError('webauthn_verification_failed', `The passkey response could not be verified: ${why}`);
}

function decode(text: string, what: string): Bytes {
  if (!isoBase64URL.isBase64URL(text)) throw failed(`${what} is not base64url`);
  return isoBase64URL.toBuffer(text);
}

/** clientDataJSON, decoded: what the browser says it signed. */
export function readClientData(clientDataJSON: string): z.infer<typeof ClientData> {
  try {
    return ClientData.parse(JSON.parse(Buffer.from(decode(clientDataJSON, 'clientDataJSON')).toString('utf8')));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failed('clientDataJSON is not the JSON a browser sends');
  }
}

/** The authenticator data of a registration (inside the CBOR attestation object). */
export function registrationAuthData(attestationObject: string): ParsedAuthenticatorData {
  try {
    return parseAuthenticatorData(decodeAttestationObject(decode(attestationObject, 'attestationObject')).get('authData'));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failed('attestationObject is not a CBOR attestation with authenticator data');
  }
}

/** The authenticator data of a login assertion. */
export function assertionAuthData(authenticatorData: string): ParsedAuthenticatorData {
  try {
    return parseAuthenticatorData(decode(authenticatorData, 'authenticatorData'));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failed('authenticatorData cannot be parsed');
  }
}

/**
 * The checks with their own codes: the response answers this challenge, on an allowed
 * origin (webauthn_origin_mismatch), for the tenant's RP ID (webauthn_rp_id_mismatch).
 */
export function checkBinding(
  clientDataJSON: string,
  authData: ParsedAuthenticatorData,
  challenge: WebauthnChallengeRecord,
  expected: { rpId: string; origins: string[]; type: 'webauthn.create' | 'webauthn.get' },
): void {
  const clientData = readClientData(clientDataJSON);
  if (clientData.type !== expected.type) throw failed(`clientData.type is "${clientData.type}", expected "${expected.type}"`);
  if (clientData.challenge !== challenge.challenge) throw failed(`the response answers another challenge than ${challenge.id}`);
  if (!expected.origins.includes(clientData.origin)) {
    throw new ApiError('webauthn_origin_mismatch', `The passkey response was made on the origin ${clientData.origin}, which this tenant does not allow`, [
      { path: 'response.clientDataJSON.origin', message: `allowed: ${expected.origins.join(', ') || '(none)'}`, origin: clientData.origin },
    ]);
  }
  const rpIdHash = createHash('sha256').update(expected.rpId, 'utf8').digest();
  if (!rpIdHash.equals(Buffer.from(authData.rpIdHash))) {
    throw new ApiError('webauthn_rp_id_mismatch', `The passkey is bound to another RP ID than this tenant's (${expected.rpId})`, [
      { path: 'response.authenticatorData.rpIdHash', message: `expected SHA-256 of "${expected.rpId}"` },
    ]);
  }
}

/**
 * A cloned authenticator shows itself by a signature counter that did not advance
 * (a counter of 0 on both sides means the authenticator does not count).
 */
export function checkCounter(authData: ParsedAuthenticatorData, storedCounter: number): void {
  if ((authData.counter > 0 || storedCounter > 0) && authData.counter <= storedCounter) {
    throw new ApiError(
      'counter_not_advanced',
      `The signature counter did not advance (got ${authData.counter}, last seen ${storedCounter}); the authenticator may be cloned`,
      [{ path: 'response.authenticatorData.signCount', message: `must be greater than ${storedCounter}` }],
    );
  }
}

/** Wraps the library's verification: anything it refuses is webauthn_verification_failed. */
export async function libraryVerify<T extends { verified: boolean }>(run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    throw failed((error as Error).message);
  }
  if (!result.verified) throw failed('the signature does not verify');
  return result;
}
