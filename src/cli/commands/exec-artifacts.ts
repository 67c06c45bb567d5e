/**
 * What `svc exec` leaves behind for CI: on a failed run the emulator's log, its request journal
 * and its store (every record, and the same as a fixture); on `--export-on-exit` the fixture.
 * Each file is 0600, and the artefacts (which CI keeps and shows) hide the secrets the schemas
 * mark (docs/testing-with-svc.md#secrets).
 */
import { join } from 'node:path';
import type { Emulator } from '../../emulator.js';
import { exportFixture, withoutSecrets } from '../../services/export.js';
import { requestJournal } from '../../services/request-journal.js';
import { ANY, hideSecrets, secretPaths } from '../../schemas/secret.js';
import { UpdateTenantBody } from '../../schemas/tenant.js';
import { COLLECTION_NAMES } from '../../store/records.js';
import { CliError } from '../output.js';
import { makePrivateDir, writePrivateFile as write } from '../private-file.js';

/**
 * Every record of the store, by collection, as the store keeps them: hashes and sealed material,
 * not key values. A tenant record keeps its settings as the tenant's update takes them, bot token
 * included, so what that schema marks is hidden in each tenant's record.
 */
function storeRecords(emulator: Emulator): Record<string, unknown[]> {
  const records: Record<string, unknown[]> = Object.fromEntries(COLLECTION_NAMES.map((name) => [name, [...emulator.rt.store.all(name)]]));
  return hideSecrets(
    records,
    secretPaths(UpdateTenantBody).map((path) => ['tenants', ANY, ...path]),
  );
}

/**
 * Writes the store as a fixture file (0600); a store with nothing to export is said, not fatal.
 * `--export-on-exit` keeps its secrets, for `--seed` to take it back; the artefacts' copy hides them.
 */
export async function writeExport(emulator: Emulator, file: string, includeSecrets = true): Promise<void> {
  try {
    const exported = await exportFixture(emulator.rt);
    const result = includeSecrets ? exported : withoutSecrets(exported);
    await write(file, `${JSON.stringify(result.fixture, null, 2)}\n`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    process.stderr.write(`svc exec: no export written to ${file}: ${(error as Error).message}\n`);
  }
}

/** emulator.log, requests.json (the journal), store.json (every record) and fixture.json (the store as a fixture). */
export async function writeArtifacts(emulator: Emulator, dir: string, log: string[]): Promise<void> {
  await makePrivateDir(dir);
  await write(join(dir, 'emulator.log'), log.length === 0 ? '' : `${log.join('\n')}\n`);
  await write(join(dir, 'requests.json'), `${JSON.stringify(await requestJournal(emulator.rt).list(), null, 2)}\n`);
  await write(join(dir, 'store.json'), `${JSON.stringify(storeRecords(emulator), null, 2)}\n`);
  await writeExport(emulator, join(dir, 'fixture.json'), false);
}
