/**
 * Request ids: `req_` + 20 random base62 characters, as every id in D2. They are made about a
 * thousand at a time, one after another in one string, one random byte to one character
 * through a table, and each request gets a slice of that string: drawing and converting 20
 * characters for each request was a tenth of a GET's CPU in the app, and drawing 64 ids at a
 * time still twice what this costs (a call into OpenSSL per 64 ids, `% 62` per character, and
 * a Buffer copy, a call into C++, per id). A slice of a flat string is flat too, where
 * `req_` + a slice is not: each check of the header value as it is written (a regular
 * expression in Node's HTTP code) then had to flatten it on V8's slow path.
 */
import { randomFillSync } from 'node:crypto';
import { ID_RANDOM_LENGTH } from '../ids.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = Buffer.from('req_', 'latin1');
const ID_LENGTH = PREFIX.length + ID_RANDOM_LENGTH;
const IDS_PER_DRAW = 1024;
/** Bytes at or above this would make `byte % 62` favour the first characters; they are skipped. */
const UNBIASED_LIMIT = 62 * 4;
/** The character code of each random byte, or 0 for a byte that is skipped. */
const CHARACTER_OF_BYTE = new Uint8Array(256);
for (let byte = 0; byte < UNBIASED_LIMIT; byte++) CHARACTER_OF_BYTE[byte] = ALPHABET.charCodeAt(byte % 62);
/** Enough bytes for every id of a draw even with many more skipped bytes (3%) than usual, nearly always. */
const DRAW_BYTES = Math.ceil((ID_RANDOM_LENGTH * IDS_PER_DRAW * 256) / UNBIASED_LIMIT) + 256;

let drawn = '';
let next = 0;

/** Up to IDS_PER_DRAW whole request ids in one string, each random character equally likely. */
function draw(): string {
  const bytes = randomFillSync(Buffer.allocUnsafe(DRAW_BYTES));
  const ids = Buffer.allocUnsafe(ID_LENGTH * IDS_PER_DRAW);
  let length = 0;
  let used = 0;
  while (length < ids.length) {
    for (let i = 0; i < PREFIX.length; i++) ids[length + i] = PREFIX[i]!;
    let at = length + PREFIX.length;
    const end = length + ID_LENGTH;
    while (at < end && used < bytes.length) {
      const character = CHARACTER_OF_BYTE[bytes[used++]!]!;
      if (character !== 0) ids[at++] = character;
    }
    // An id the random bytes ran out in the middle of is left out.
    if (at < end) break;
    length = end;
  }
  return ids.toString('latin1', 0, length);
}

/** A new request id; no character of a draw is handed out twice. */
export function newRequestId(): string {
  while (next + ID_LENGTH > drawn.length) {
    drawn = draw();
    next = 0;
  }
  const id = drawn.slice(next, next + ID_LENGTH);
  next += ID_LENGTH;
  return id;
}
