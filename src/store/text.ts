/**
 * The text every store can hold (docs/postgres.md#text-the-stores-refuse). A JSON string may
 * carry two things that are not text: U+0000 (NUL), which PostgreSQL keeps in neither `text`
 * nor `jsonb`, and a lone surrogate (half of a UTF-16 pair, `\uD800` without its partner),
 * which is no Unicode character at all: `jsonb` refuses it, and UTF-8 (the wire, the data
 * dir's files) cannot carry it. svc refuses both wherever a request brings them, so the data
 * dir and PostgreSQL answer alike; anything else (emoji, right-to-left text, combining marks,
 * U+FFFF, U+2028) is stored and read back as sent.
 */

/** A value, or a key, that no store can hold: where it is (`name`, `data.note`, `shares.0`) and why. */
export type UnheldText = { path: string; message: string };

/** A surrogate without its partner: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether JSON text may hold such a string. Both can only come as escapes (`\u0000`, `\uD800`):
 * JSON has no raw control characters in strings, and UTF-8 cannot encode a surrogate. Text
 * without one (nearly every body) needs no walk. An escaped backslash before `u` (`\\u0000`,
 * plain text) is a false alarm the walk then clears.
 */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

export function mayHoldUnheldText(json: string): boolean {
  return SUSPECT_ESCAPE.test(json);
}

/** Why no store can hold `text`, or null when any can. */
export function unheldReason(text: string): string | null {
  if (text.includes('\u0000')) return 'holds U+0000 (NUL), which PostgreSQL cannot keep as text: refused on every store';
  if (LONE_SURROGATE.test(text)) return 'holds a lone surrogate (\\uD800–\\uDFFF without its pair), which is not Unicode text: refused on every store';
  return null;
}

/** A key as a path names it: as it is, or escaped when it is itself the problem (so the answer shows it). */
function keyText(key: string, unheld: boolean): string {
  return unheld ? JSON.stringify(key).slice(1, -1) : key;
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * The strings and keys in a parsed JSON value (or a record) that no store can hold, at most
 * `limit`, with their paths. A loop, not a recursion: a body nested 100,000 deep is walked
 * like any other.
 */
export function findUnheldText(value: unknown, limit = 10): UnheldText[] {
  const found: UnheldText[] = [];
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0 && found.length < limit) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      const reason = unheldReason(current);
      if (reason !== null) found.push({ path: path === '' ? '(body)' : path, message: reason });
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push([current[index], join(path, String(index))]);
      continue;
    }
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      const reason = unheldReason(key);
      if (reason !== null) {
        found.push({ path: join(path, keyText(key, true)), message: `the key ${reason}` });
        continue;
      }
      pending.push([(current as Record<string, unknown>)[key], join(path, key)]);
    }
  }
  return found;
}
