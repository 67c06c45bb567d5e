import { split, combine } from 'shamir-secret-sharing';
import { describe, expect, it } from 'vitest';
import { fillRandom, randomBase62, randomBytes } from './entropy.js';
import { getRandomBytes } from './crypto/shamir-csprng.js';

describe('pooled CSPRNG', () => {
  it('hands out bytes that are never handed out twice, across pool refills', () => {
    // 4 KiB pool: 300 draws of 32 bytes cross two refills; any repeat would mean a reused slice.
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) seen.add(randomBytes(32).toString('hex'));
    expect(seen.size).toBe(300);
  });

  it('fills what it is given, small or large (large draws bypass the pool)', () => {
    const small = new Uint8Array(7);
    expect(fillRandom(small)).toBe(small);
    const large = fillRandom(new Uint8Array(64 * 1024));
    expect(large.some((byte) => byte !== 0)).toBe(true);
    expect(randomBytes(0)).toHaveLength(0);
  });

  it('gives base62 strings of the length asked, every character about equally often', () => {
    const text = Array.from({ length: 2_000 }, () => randomBase62(31)).join('');
    expect(text).toMatch(/^[0-9A-Za-z]{62000}$/);
    const counts = new Map<string, number>();
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 1,000 expected per character (σ ≈ 31): a modulo bias or a missing character lands far outside.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - 1_000)).toBeLessThan(250);
  });

  it('stands in for shamir-secret-sharing/csprng: plain Uint8Arrays that split and combine', async () => {
    const bytes = getRandomBytes(255);
    expect(bytes.constructor).toBe(Uint8Array);
    expect(bytes).toHaveLength(255);
    const secret = new Uint8Array(randomBytes(32));
    const shares = await split(secret, 3, 2);
    expect(await combine([shares[2]!, shares[0]!])).toEqual(secret);
  });
});
