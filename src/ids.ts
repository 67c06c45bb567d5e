/** Identifiers (D2): a type prefix plus random base62. */
import { randomBase62 } from './entropy.js';

export { randomBase62 };

/** Length of the random part of an id. */
export const ID_RANDOM_LENGTH = 20;

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

export function isBase62(value: string): boolean {
  return /^[0-9A-Za-z]*$/.test(value);
}
