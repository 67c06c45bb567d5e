/**
 * Identifiers (D2): a type prefix plus base62. Records made through the API get random ids;
 * seeded records get ids derived from the id seed (`svc serve --id-seed`), so two emulators
 * started alike hand out the same ones (docs/serve.md#stable-ids).
 */
import { createHmac } from 'node:crypto';
import { randomBase62 } from './entropy.js';

export { randomBase62 };

/** Length of the random part of an id. */
export const ID_RANDOM_LENGTH = 20;

/** The id seed when none is given: two emulators started without one seed the same ids. */
export const DEFAULT_ID_SEED = 'svc';
/** The id seed that asks for random ids everywhere, seeded records too. */
export const RANDOM_ID_SEED = 'random';

export type IdPrefix =
  | 'ten'
  | 'app'
  | 'usr'
  | 'wal'
  | 'key'
  | 'whk'
  | 'dlv'
  | 'evt'
  | 'gst'
  | 'dsn'
  | 'pky'
  | 'mfc'
  | 'shr'
  | 'dom'
  | 'cs'
  | 'bps'
  | 'tx'
  | 'req'
  | 'chl'
  | 'ctr'
  | 'upd'
  | 'ses'
  | 'tga';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_RANDOM_LENGTH)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this would favour the first characters; they are skipped (as in entropy.ts). */
const BASE62_LIMIT = 62 * 4;

/**
 * The id `seed` gives the record named `name` (a path such as `ten_…/users/ada@example.com`):
 * HMAC-SHA256 keyed by the seed, read as base62. The same seed and name give the same id; a
 * caller who knows neither cannot tell one id from the next. Only ids come from here: secrets
 * (keys, tokens, shares) are drawn from the CSPRNG (entropy.ts), whatever the seed.
 */
export function derivedId(prefix: IdPrefix, seed: string, name: string): string {
  let out = '';
  for (let block = 0; out.length < ID_RANDOM_LENGTH; block++) {
    const digest = createHmac('sha256', seed).update(`${prefix}\n${name}\n${block}`).digest();
    for (const byte of digest) {
      if (byte < BASE62_LIMIT) out += BASE62[byte % 62];
      if (out.length === ID_RANDOM_LENGTH) break;
    }
  }
  return `${prefix}_${out}`;
}

export function isBase62(value: string): boolean {
  return /^[0-9A-Za-z]*$/.test(value);
}
