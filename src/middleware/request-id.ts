/**
 * Request ids: `req_` + 20 random base62 characters, as every id in D2. They are made 64 at a
 * time, one after another in one string, one random byte to one character through a table,
 * and each request gets a slice of that string: drawing and converting 20 characters for
 * each request was a tenth of a GET's CPU in the app. A slice of a flat string is flat too,
 * where `req_` + a slice is not: each check of the header value as it is written (a regular
 * expression in Node's HTTP code) then had to flatten it on V8's slow path.
 */
import { randomFillSync } from 'node:crypto';
import { ID_RANDOM_LENGTH } from '../ids.js';

const ALPHABET = Buffer.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 'latin1');
const PREFIX = Buffer.from('req_', 'latin1');
const ID_LENGTH = PREFIX.length + ID_RANDOM_LENGTH;
const IDS_PER_DRAW = 64;
/** Bytes at or above this would make `byte % 62` favour the first characters; they are skipped. */
const UNBIASED_LIMIT = 62 * 4;
/** Enough bytes for 64 ids even when every byte over the limit (3%) is skipped, nearly always. */
const DRAW_BYTES = ID_RANDOM_LENGTH * IDS_PER_DRAW + 64;

let drawn = '';
let next = 0;

/** Up to 64 whole request ids in one string, each random character equally likely. */
function draw(): string {
  const bytes = randomFillSync(Buffer.allocUnsafe(DRAW_BYTES));
  const ids = Buffer.allocUnsafe(ID_LENGTH * IDS_PER_DRAW);
  let length = 0;
  for (let i = 0; i < bytes.length && length < ids.length; i++) {
    if (length % ID_LENGTH === 0) length += PREFIX.copy(ids, length);
    const byte = bytes[i]!;
    if (byte < UNBIASED_LIMIT) ids[length++] = ALPHABET[byte % 62]!;
  }
  // An id the random bytes ran out in the middle of is left out.
  return ids.toString('latin1', 0, length - (length % ID_LENGTH));
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
