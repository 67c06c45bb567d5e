/** The data file's document on its own: what checkDocument takes, fills in and refuses (D12). */
import { describe, expect, it } from 'vitest';
import { checkDocument, emptyDocument, SCHEMA_VERSION, StoreOpenError } from './document.js';
import { COLLECTION_NAMES } from './records.js';

const PATH = '/data/db.json';

describe('checkDocument', () => {
  it('takes a document of this version and fills in collections it lacks', () => {
    const document = checkDocument({ schemaVersion: SCHEMA_VERSION, users: [] }, PATH);
    for (const name of COLLECTION_NAMES) expect(document[name]).toEqual([]);
    expect(checkDocument(emptyDocument(), PATH)).toEqual(emptyDocument());
  });

  it.each([
    ['an array', [], 'does not hold a JSON object'],
    ['no version', { users: [] }, 'has no schemaVersion'],
    [
      'a newer version',
      { schemaVersion: SCHEMA_VERSION + 1 },
      `was written by a newer svc (schema version ${SCHEMA_VERSION + 1}, this one reads up to ${SCHEMA_VERSION})`,
    ],
    ['a collection that is not a list', { schemaVersion: SCHEMA_VERSION, users: {} }, 'has a "users" that is not a list'],
  ])('refuses %s, naming the file and leaving it untouched', (_name, raw, why) => {
    expect(() => checkDocument(raw, PATH)).toThrow(StoreOpenError);
    expect(() => checkDocument(raw, PATH)).toThrow(`the data file ${PATH} ${why}; it was left untouched.`);
  });
});
