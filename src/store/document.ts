/**
 * The data file's document (D12): its layout version, its shape, and the check that
 * refuses a file this version cannot read, without ever overwriting it.
 */
import { COLLECTION_NAMES, type CollectionName, type CollectionTypes } from './records.js';
import { isRecordList } from './snapshot.js';

/** The version of the file's layout; a newer file is refused, never overwritten. */
export const SCHEMA_VERSION = 1;
export const DATA_FILE = 'db.json';

export type StoreDocument = { schemaVersion: number } & { [K in CollectionName]: CollectionTypes[K][] };

/** A store that cannot be opened: the message says why and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

export function emptyDocument(): StoreDocument {
  const document = { schemaVersion: SCHEMA_VERSION } as StoreDocument;
  for (const name of COLLECTION_NAMES) (document as Record<string, unknown>)[name] = [];
  return document;
}

/** Refuses a file this version cannot read, with a message that says why. */
export function checkDocument(raw: unknown, path: string): StoreDocument {
  const refuse = (why: string): never => {
    throw new StoreOpenError(`the data file ${path} ${why}; it was left untouched. Move it away or start with another --data-dir.`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse('does not hold a JSON object');
  const document = raw as Record<string, unknown>;
  const version = document['schemaVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version)) return refuse('has no schemaVersion');
  if (version > SCHEMA_VERSION) {
    return refuse(`was written by a newer svc (schema version ${version}, this one reads up to ${SCHEMA_VERSION})`);
  }
  for (const name of COLLECTION_NAMES) {
    const value = document[name];
    if (value === undefined) document[name] = [];
    // A list, or a RawBlock: a lazy collection's lines, as read from a file svc wrote (snapshot.ts).
    else if (!isRecordList(value)) refuse(`has a "${name}" that is not a list`);
  }
  return document as StoreDocument;
}
