import { createPublicKey, createPrivateKey, randomBytes, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPartyKeys, partyIdFor, publicKeyFromSeed, recoverKey } from './party.js';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

describe('publicKeyFromSeed', () => {
  it('matches RFC 8032 test 1', () => {
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    expect(publicKeyFromSeed(seed).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  });

  it('agrees with the PKCS#8 import for random seeds, and the key signs', () => {
    for (let i = 0; i < 20; i++) {
      const seed = randomBytes(32);
      const viaDer = createPublicKey(createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }))
        .export({ format: 'der', type: 'spki' })
        .subarray(-32);
      expect(publicKeyFromSeed(seed).equals(viaDer)).toBe(true);
    }
  });

  it('refuses a seed of the wrong length', () => {
    expect(() => publicKeyFromSeed(Buffer.alloc(31))).toThrow(RangeError);
  });
});

describe('createPartyKeys', () => {
  it('splits a seed whose any two shares recover the public key', async () => {
    const keys = await createPartyKeys('alice@example');
    expect(keys.partyId).toBe(partyIdFor('alice@example', keys.publicKey));
    expect(keys.partyId).toMatch(/^alice-example::1220[0-9a-f]{64}$/);
    for (const pair of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const { seed, publicKey } = await recoverKey([keys.shares[pair[0]]!, keys.shares[pair[1]]!]);
      expect(publicKey.equals(keys.publicKey)).toBe(true);
      const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      const message = Buffer.from('hello');
      const signature = sign(null, message, privateKey);
      expect(
        verify(
          null,
          message,
          createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), keys.publicKey]), format: 'der', type: 'spki' }),
          signature,
        ),
      ).toBe(true);
    }
  });
});
