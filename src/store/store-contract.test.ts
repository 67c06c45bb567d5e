/**
 * One contract, every backend: the file store on a temp data dir, and PostgreSQL on a real
 * server from Debian's packages (skipped with a message where it is not installed, except
 * under REQUIRE_POSTGRES=1).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { tempDataDir } from '../test-support/harness.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../test-support/postgres.js';
import { storeContract } from '../test-support/store-contract.js';
import { FileStore } from './file-store.js';
import { PostgresStore } from './postgres/store.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storeContract('file (lowdb and its journal)', {
  async fresh() {
    const place = tempDataDir();
    dirs.push(place);
    return { ...(await FileStore.open({ dataDir: place })), place };
  },
  reopen: (place) => FileStore.open({ dataDir: place }),
});

const postgres = postgresAvailability();
if (!postgres.available) {
  describe('the store contract: PostgreSQL', () => {
    it.skip(`skipped: ${postgres.reason}`, () => {});
  });
} else {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  storeContract('PostgreSQL', {
    async fresh() {
      const place = await server.database();
      return { ...(await PostgresStore.open(place)), place };
    },
    reopen: (place) => PostgresStore.open(place),
  });
}
