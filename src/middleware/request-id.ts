/**
 * Request ids: `req_` + 20 random base62 characters, as every id in D2. They are cut from a
 * run of random base62 characters made for 64 ids at once, one byte to one character through
 * a table: drawing and converting 20 characters for each request was a tenth of a GET's CPU
 * in the app.
 */
import { randomFillSync } from 'node:crypto';
import { ID_RANDOM_LENGTH } from '../ids.js';

const ALPHABET = Buffer.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 'latin1');
/** Bytes at or above this would make `byte % 62` favour the first characters; they are skipped. */
const UNBIASED_LIMIT = 62 * 4;
/** Enough bytes for 64 ids even when every byte over the limit (3%) is skipped, nearly always. */
const DRAW_BYTES = ID_RANDOM_LENGTH * 64 + 64;

let drawn = '';
let next = 0;

/** A run of random base62 characters, each equally likely. */
function draw(): string {
  const bytes = randomFillSync(Buffer.allocUnsafe(DRAW_BYTES));
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    // Written over bytes already read (length ≤ i), so one buffer does.
    if (byte < UNBIASED_LIMIT) bytes[length++] = ALPHABET[byte % 62]!;
  }
  return bytes.toString('latin1', 0, length);
}

/** A new request id; no character of a draw is handed out twice. */
export function newRequestId(): string {
  while (next + ID_RANDOM_LENGTH > drawn.length) {
    drawn = draw();
    next = 0;
  }
  const id = `req_${drawn.slice(next, next + ID_RANDOM_LENGTH)}`;
  next += ID_RANDOM_LENGTH;
  return id;
}
