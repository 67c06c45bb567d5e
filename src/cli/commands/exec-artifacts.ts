/**
 * What `svc exec` leaves behind for CI: on a failed run the emulator's log, its request journal
 * and its store (every record, and the same as a fixture); on `--export-on-exit` the fixture.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Emulator } from '../../emulator.js';
import { exportFixture } from '../../services/export.js';
import { requestJournal } from '../../services/request-journal.js';
import { COLLECTION_NAMES } from '../../store/records.js';
import { CliError } from '../output.js';

async function write(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** Every record of the store, by collection, as the store keeps them (hashes and sealed material, not key values). */
function storeRecords(emulator: Emulator): Record<string, unknown[]> {
  return Object.fromEntries(COLLECTION_NAMES.map((name) => [name, [...emulator.rt.store.all(name)]]));
}

/** Writes the store as a fixture file; a store with nothing to export is said, not fatal. */
export async function writeExport(emulator: Emulator, file: string): Promise<void> {
  try {
    const result = await exportFixture(emulator.rt);
    await write(file, `${JSON.stringify(result.fixture, null, 2)}\n`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    process.stderr.write(`svc exec: no export written to ${file}: ${(error as Error).message}\n`);
  }
}

/** emulator.log, requests.json (the journal), store.json (every record) and fixture.json (the store as a fixture). */
export async function writeArtifacts(emulator: Emulator, dir: string, log: string[]): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot make the artifacts dir ${dir}: ${(error as Error).message}`);
  }
  await write(join(dir, 'emulator.log'), log.length === 0 ? '' : `${log.join('\n')}\n`);
  await write(join(dir, 'requests.json'), `${JSON.stringify(await requestJournal(emulator.rt).list(), null, 2)}\n`);
  await write(join(dir, 'store.json'), `${JSON.stringify(storeRecords(emulator), null, 2)}\n`);
  await writeExport(emulator, join(dir, 'fixture.json'));
}
