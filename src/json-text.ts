/**
 * JSON text made ahead of the answer. The app's c.json() sends a JsonText as it is, so a
 * route can answer a page from views serialized once per record instead of stringifying
 * twenty objects on every request. Anything else that stringifies one the usual way still
 * gets the same document (toJSON).
 */
import type { Page } from './schemas/common.js';

export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * The JSON text of `page`, its items given as text by `itemText`; the keys come in the order
 * the page object has them (data first). The text is made by one join, start and end included:
 * the items joined and then wrapped would be a text of two parts, copied once more into one
 * when the answer is written.
 */
export function pageText<T>(page: Page<T>, itemText: (item: T) => string): JsonText {
  const { data, ...rest } = page;
  const tail = JSON.stringify(rest);
  const close = tail === '{}' ? ']}' : `],${tail.slice(1)}`;
  const texts = data.map(itemText);
  if (texts.length === 0) return new JsonText(`{"data":[${close}`);
  texts[0] = `{"data":[${texts[0]}`;
  texts[texts.length - 1] += close;
  return new JsonText(texts.join(','));
}

const ENVELOPE_OPEN = '{"data":';

/** `{"data":<text>}`: the single-record envelope around an item given as text. */
export function envelopeText(itemText: string): JsonText {
  return new JsonText(`${ENVELOPE_OPEN}${itemText}}`);
}

/** The item's text inside an envelope made by envelopeText(): a slice of it, not a copy. */
export function itemOfEnvelope(envelope: JsonText): string {
  return envelope.text.slice(ENVELOPE_OPEN.length, -1);
}

/**
 * Hands a JsonText to c.json() under the type of the document it encodes, so the route keeps
 * its typed response.
 */
export function asDocument<T>(text: JsonText): T {
  return text as unknown as T;
}
