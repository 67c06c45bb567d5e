/** Identifiers (DESIGN D2): a type prefix plus random base62. */
import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Length of the random part of an id. */
export const ID_RANDOM_LENGTH = 20;

export type IdPrefix =
  | 'ten' | 'app' | 'usr' | 'wal' | 'key' | 'whk' | 'dlv' | 'evt' | 'gst' | 'dsn'
  | 'pky' | 'mfc' | 'shr' | 'dom' | 'cs' | 'bps' | 'tx' | 'req' | 'chl' | 'ctr' | 'upd' | 'ses' | 'tga';

/** Random base62 string of the given length, from a CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_RANDOM_LENGTH)}`;
}

export function isBase62(value: string): boolean {
  return /^[0-9A-Za-z]*$/.test(value);
}
