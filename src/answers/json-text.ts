/**
 * JSON text made ahead of the answer, typed by the document it encodes: a route answers a page
 * joined from views serialized once per record (services/users.ts) instead of stringifying
 * twenty objects on every request, and json-answer.ts sends it with the route's response
 * type. A JsonText is only made from a value (jsonTextOf) or from other JsonTexts, so its type
 * is the type of what was serialized. Anything that stringifies one the usual way still gets
 * the same document (toJSON).
 */
import type { Page } from '../schemas/common.js';

export class JsonText<T> {
  /** The document the text encodes, as a type only: never set. */
  declare readonly document: T;

  private constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }

  /** The JSON text of `value`. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /**
   * The JSON text of `page`, its items given as text by `itemText`; the keys come in the order
   * the page object has them (data first). The text is made by one join, start and end included:
   * the items joined and then wrapped would be a text of two parts, copied once more into one
   * when the answer is written.
   */
  static page<T, V>(page: Page<T>, itemText: (item: T) => JsonText<V>): JsonText<Page<V>> {
    const { data, ...rest } = page;
    const tail = JSON.stringify(rest);
    const close = tail === '{}' ? ']}' : `],${tail.slice(1)}`;
    const texts = data.map((item) => itemText(item).text);
    if (texts.length === 0) return new JsonText(`{"data":[${close}`);
    texts[0] = `{"data":[${texts[0]}`;
    texts[texts.length - 1] += close;
    return new JsonText(texts.join(','));
  }

  /** `{"data":<item>}`: the single-record envelope around an item given as text. */
  static envelope<T>(item: JsonText<T>): JsonText<{ data: T }> {
    return new JsonText(`${ENVELOPE_OPEN}${item.text}}`);
  }

  /** The item inside an envelope made by envelope(): a slice of its text, not a copy. */
  static itemOf<T>(envelope: JsonText<{ data: T }>): JsonText<T> {
    return new JsonText(envelope.text.slice(ENVELOPE_OPEN.length, -1));
  }
}

const ENVELOPE_OPEN = '{"data":';
