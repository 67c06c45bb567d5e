import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cbor } from './conformance/webauthn.js';
import { coseKeyProblem } from './cose-key.js';

type Entry = [number, number | Buffer];
const b = (text: unknown): Buffer => Buffer.from(String(text), 'base64url');
const encode = (entries: Entry[]): string => cbor(new Map<number, number | Buffer>(entries)).toString('base64url');

/** COSE keys of each algorithm passkeys are made with, from real key pairs. */
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
const ES256: Entry[] = [
  [1, 2],
  [3, -7],
  [-1, 1],
  [-2, b(ec.x)],
  [-3, b(ec.y)],
];
const EDDSA: Entry[] = [
  [1, 1],
  [3, -8],
  [-1, 6],
  [-2, b(ed.x)],
];
const RS256: Entry[] = [
  [1, 3],
  [3, -257],
  [-1, b(rsa.n)],
  [-2, b(rsa.e)],
];

describe('coseKeyProblem', () => {
  it.each([
    ['ES256', ES256],
    ['EdDSA', EDDSA],
    ['RS256', RS256],
  ])('takes an %s public key', (_name, entries) => {
    expect(coseKeyProblem(encode(entries))).toBeUndefined();
  });

  const flipped = Buffer.from(b(ec.y));
  flipped[31]! ^= 1;
  const es256 = Buffer.from(encode(ES256), 'base64url');
  it.each([
    ['a point off the curve', encode([...ES256.slice(0, 4), [-3, flipped]]), /node:crypto does not take it as an ES256 public key/],
    [
      'an algorithm passkeys are not made with',
      encode([[1, 2], [3, -35], ...ES256.slice(2)]),
      /alg \(label 3\) is not one of -7 \(ES256\), -8 \(EdDSA\), -257 \(RS256\)/,
    ],
    ['a key type of another algorithm', encode([[1, 1], ...ES256.slice(1)]), /ES256 \(-7\) takes an EC2 key/],
    ['a missing coordinate', encode(ES256.slice(0, 4)), /no y \(label -3\)/],
    ['bytes after the map', Buffer.concat([es256, Buffer.from([0])]).toString('base64url'), /bytes follow the map/],
    ['a cut-off key', es256.subarray(0, 40).toString('base64url'), /ends before its last field/],
    ['no map at all', cbor(7).toString('base64url'), /not a CBOR map/],
    ['nothing', '', /ends before its last field/],
  ])('refuses %s, saying why', (_name, text, reason) => {
    expect(coseKeyProblem(text)).toMatch(reason);
    expect(coseKeyProblem(text)).toMatch(/^not a COSE public key: /);
  });
});
