/**
 * The data dir holds what svc keeps: records with bot tokens, hashes, sealed shares and the key
 * that opens them. Only its owner reads it (docs/testing-with-svc.md#secrets): the dir is 0700
 * and every file svc writes in it 0600, temp files included, since a rename keeps the mode.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLOCK_FILE } from '../clock/persisted.js';
import { DATA_FILE } from './document.js';
import { LOCK_FILE } from './lock.js';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/** The data dir's seal key (crypto/seal.ts), named here with the dir's other files. */
export const SEAL_KEY_FILE = 'seal.key';

/** The emulated DNS records (services/dns-records.ts), named here with the dir's other files. */
export const DNS_FILE = 'dns.json';

/** The live journal beside the data file (journal-file.ts), and a rotated one, `.N` after it. */
const JOURNAL = `${DATA_FILE.replace(/\.json$/, '')}.journal`;
const ROTATED = new RegExp(`^${JOURNAL.replace('.', '\\.')}\\.\\d+$`);

/** Whether svc writes a file (or, for the snapshots, a folder) of this name in a data dir. */
export function isDataDirFile(name: string): boolean {
  return (
    name === DATA_FILE ||
    name === `.${DATA_FILE}.tmp` ||
    name === JOURNAL ||
    ROTATED.test(name) ||
    name === LOCK_FILE ||
    name === CLOCK_FILE ||
    name === `${CLOCK_FILE}.tmp` ||
    name === SEAL_KEY_FILE ||
    name === DNS_FILE ||
    name === `${DNS_FILE}.tmp` ||
    // The snapshots' folder (services/snapshots.ts SNAPSHOT_DIR), made 0700 by them; its name is written here as the store cannot import services.
    name === 'snapshots'
  );
}

const opened = (mode: number): boolean => (mode & 0o077) !== 0;

/**
 * Makes the data dir 0700, or, when it exists, makes svc's files in it 0600 (an older svc made
 * them 0644). An existing dir is tightened to 0700 only when it is svc's: it holds svc's data
 * and nothing but svc's files. A dir of the user's with other files in it keeps its mode.
 */
export function prepareDataDir(dir: string): void {
  if (mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE }) !== undefined) return;
  const names = readdirSync(dir);
  for (const name of names.filter(isDataDirFile)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isFile() && opened(stat.mode)) chmodSync(path, DATA_FILE_MODE);
  }
  const holdsData = names.some((name) => name === DATA_FILE || name === JOURNAL);
  if (holdsData && names.every(isDataDirFile) && opened(statSync(dir).mode)) chmodSync(dir, DATA_DIR_MODE);
}
