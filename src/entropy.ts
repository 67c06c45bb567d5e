/**
 * Random bytes from node:crypto's CSPRNG, drawn 4 KiB at a time. Each small draw from
 * node:crypto is a round trip into OpenSSL (~2 µs for randomBytes(1)), and ids, Shamir
 * coefficients and IVs ask for a few bytes at a time: creating one user took ~70 µs of
 * one-byte draws. Bytes handed out are wiped from the pool at once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
/** Draws larger than this go to node:crypto directly. */
const LARGE_DRAW = 1024;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/** Fills `target` with random bytes and returns it. */
export function fillRandom<T extends Uint8Array>(target: T): T {
  const size = target.length;
  if (size > LARGE_DRAW) return randomFillSync(target);
  if (next + size > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  target.set(pool.subarray(next, next + size));
  pool.fill(0, next, next + size);
  next += size;
  return target;
}

export function randomBytes(size: number): Buffer {
  return fillRandom(Buffer.alloc(size));
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this would make `byte % 62` favour the first characters; they are skipped. */
const BASE62_LIMIT = 62 * 4;

/** A random base62 string of `length` characters, every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length - out.length + 2)) {
      if (byte < BASE62_LIMIT) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
