/**
 * Benchmark data: svc data dirs holding N users (made through the real services, so every
 * user has its party and sealed shares), and json-server files with the same users. Cached
 * under bench/.cache; each run works on a copy.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime } from '../../src/emulator.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../../src/services/seed.js';
import { prepareUser, userView, type PreparedUser } from '../../src/services/users.js';
import { TRUST_LEVELS } from '../../src/schemas/words.js';
import type { Runtime } from '../../src/runtime.js';

export const CACHE_DIR = fileURLToPath(new URL('../.cache', import.meta.url));
export const ACME_KEY = 'sk_test_acmeLocalDevKey00000000000000001';
export const ACME_TENANT = 'ten_acme0000000000000001';
const CACHE_VERSION = 6;
/** The first names bench users are made with (`alice.0@bench.test`, `bob.1@bench.test`, …). */
export const FIRST_NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];

/** A data dir with the default fixture plus `count` more Acme users; made once, then cached. */
export async function svcDataDir(count: number, log: (line: string) => void): Promise<string> {
  const dir = join(CACHE_DIR, `svc-users-${count}-v${CACHE_VERSION}`);
  if (existsSync(join(dir, 'db.json')) && !existsSync(join(dir, 'svc.lock'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`making a store with ${count} users (cached in ${dir})…`);
  const rt = await createRuntime({ dataDir: dir });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  await addBenchUsers(rt, count);
  await rt.close();
  return dir;
}

/** Adds `count` Acme users (each with its party and wallet, made by the real services) to a seeded runtime, 2,000 a write. */
export async function addBenchUsers(rt: Runtime, count: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let done = 0; done < count;) {
    const batch: PreparedUser[] = [];
    for (const end = Math.min(count, done + 2_000); done < end; done++) {
      const first = FIRST_NAMES[done % FIRST_NAMES.length]!;
      batch.push(
        await prepareUser(rt, ACME_TENANT, {
          email: `${first}.${done}@bench.test`,
          name: `${first[0]!.toUpperCase()}${first.slice(1)} Bench${done}`,
          trustLevel: TRUST_LEVELS[1 + (done % 3)]!,
          createdAt: new Date(start + done * 1_000).toISOString(),
        }),
      );
    }
    await rt.store.write(() => {
      for (const { user, wallet } of batch) {
        rt.store.insert('users', user);
        rt.store.insert('wallets', wallet);
      }
    });
  }
}

/** A copy of a cached dir to run against (writes must not touch the cache). */
export function workingCopy(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** A json-server db.json with the same users as the svc dir (Acme's, as the API shows them). */
export async function jsonServerFile(count: number, log: (line: string) => void): Promise<string> {
  const path = join(CACHE_DIR, `json-server-users-${count}-v${CACHE_VERSION}.json`);
  if (existsSync(path)) return path;
  const source = await svcDataDir(count, log);
  const copy = workingCopy(source);
  const rt = await createRuntime({ dataDir: copy });
  const users = rt.store.newestFirst('users', ACME_TENANT).map(userView);
  await rt.close();
  rmSync(copy, { recursive: true, force: true });
  writeFileSync(path, JSON.stringify({ users }));
  return path;
}

/** A fresh copy of a json-server file (json-server writes to its file). */
export function jsonServerCopy(path: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'json-server-bench-'));
  const copy = join(dir, 'db.json');
  cpSync(path, copy);
  return copy;
}
