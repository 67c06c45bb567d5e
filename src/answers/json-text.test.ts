import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText } from './json-text.js';

const item = fc.record({ id: fc.string(), name: fc.option(fc.string()), n: fc.integer(), tags: fc.array(fc.string(), { maxLength: 3 }) });
const page = fc.record({
  data: fc.array(item, { maxLength: 25 }),
  total: fc.nat(),
  page: fc.integer({ min: 1 }),
  pageSize: fc.integer({ min: 1, max: 100 }),
  hasMore: fc.boolean(),
});

describe('JSON text made ahead', () => {
  it('a page from item texts is the very text JSON.stringify makes of the page', () => {
    fc.assert(
      fc.property(page, (value) => {
        expect(JsonText.page(value, (entry) => JsonText.of(entry)).text).toBe(JSON.stringify(value));
      }),
    );
  });

  it('an envelope around an item text is the text of { data: item }, and gives the item back', () => {
    fc.assert(
      fc.property(item, (value) => {
        const envelope = JsonText.envelope(JsonText.of(value));
        expect(envelope.text).toBe(JSON.stringify({ data: value }));
        expect(JsonText.itemOf(envelope).text).toBe(JSON.stringify(value));
      }),
    );
  });

  it('stringified the usual way (not through the app), it is still the same document', () => {
    const text = JsonText.of({ data: [{ id: 'usr_1' }], total: 1 });
    expect(JSON.stringify({ wrapped: text })).toBe('{"wrapped":{"data":[{"id":"usr_1"}],"total":1}}');
  });
});
