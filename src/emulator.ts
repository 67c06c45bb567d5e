/**
 * The emulator as one object: runtime (store, clock), seed, app and HTTP server. `svc serve`
 * and the tests both start it through startEmulator().
 */
import { probeApp } from './app-base.js';
import { deferredFetch } from './startup/deferred-app.js';
import { silentLogger } from './logger.js';
import { openClock } from './clock/persisted.js';
import { Scheduler } from './clock/scheduler.js';
import { Sealer } from './crypto/seal.js';
import type { Runtime, RuntimeOptions } from './runtime.js';
import { listen, probePort, type RunningServer } from './server.js';
import { hashSecret } from './services/api-keys.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture, shippedFixtureKeys, type FixtureKeys } from './services/seed.js';
import { restoreSnapshot } from './services/snapshots.js';
import { usageMeter } from './services/usage.js';
import type { FixtureData } from './schemas/fixture.js';
import { FileStore } from './store/file-store.js';
import type { Store } from './store/store.js';
import type { Clock } from './clock/clock.js';
import { VERSION } from './version.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { parseTargetPolicy } from './webhooks/targets.js';

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

/** The addresses that stand for every address of the machine when bound. */
const UNSPECIFIED_ADDRESSES = new Set(['0.0.0.0', '::']);

export interface EmulatorOptions extends RuntimeOptions {
  port?: number;
  host?: string;
  /** Fixture file for an empty store (default fixtures/default.json). */
  seedFile?: string;
  /** A snapshot to start from (`svc serve --snapshot NAME`, services/snapshots.ts): restored before the first request. */
  snapshot?: string;
}

export interface SeededKey {
  tenantId: string;
  tenantName: string;
  key: string;
}

export interface Emulator {
  readonly rt: Runtime;
  readonly server: RunningServer;
  /** http://host:port/v1, where it listens */
  readonly baseUrl: string;
  /** The URL others reach it at (--public-url; default where it listens): the start banner names it. */
  readonly publicUrl: string;
  /** The dashboard, below publicUrl. */
  readonly dashboardUrl: string;
  /** The fixture's API keys that still work in this store. */
  readonly seededKeys: SeededKey[];
  close(): Promise<void>;
}

/**
 * Builds a runtime: opens (and locks) the store, the clock of its data dir, the scheduler and
 * the webhook dispatcher that resumes every stored delivery. createApp() takes it.
 */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  // A policy that cannot be read is refused before the store is opened (it throws TargetPolicyError).
  if (options.webhookTargets !== undefined) parseTargetPolicy(options.webhookTargets);
  if (options.storeUrl !== undefined) return createSharedRuntime(options, options.storeUrl);
  const { store, isNew } = await FileStore.open({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    inMemory: options.inMemory ?? false,
  });
  return assemble(store, isNew, options, () => ({ sealer: Sealer.forDataDir(store.dataDir), clock: openClock(store.dataDir, options.clock) }));
}

/**
 * The runtime on a PostgreSQL store several processes share: the seal key and the clock come
 * from the database. Loaded only when asked for, so a start on the data dir does not load the
 * driver.
 */
async function createSharedRuntime(options: RuntimeOptions, url: string): Promise<Runtime> {
  const [{ PostgresStore }, { openSharedClock, sharedSealKey }] = await Promise.all([
    import('./store/postgres/store.js'),
    import('./store/postgres/shared.js'),
  ]);
  const { store, isNew } = await PostgresStore.open(url, options.storeHoldMs === undefined ? {} : { holdMs: options.storeHoldMs });
  return assemble(store, isNew, options, async () => ({
    sealer: new Sealer(await sharedSealKey(store.pool)),
    clock: await openSharedClock(store, options.clock),
  }));
}

/** The scheduler and the dispatcher over an open store, with its seal key and clock; closes the store if anything fails. */
async function assemble(
  store: Store,
  isNew: boolean,
  options: RuntimeOptions,
  keep: () => { sealer: Sealer; clock: Clock } | Promise<{ sealer: Sealer; clock: Clock }>,
): Promise<Runtime> {
  try {
    const { sealer, clock } = await keep();
    const scheduler = new Scheduler(clock, { beforeStep: () => store.sync() });
    // The dispatcher needs the runtime it belongs to, so it is made once the runtime exists.
    const made: { dispatcher?: Dispatcher } = {};
    const rt: Runtime = {
      store,
      clock,
      scheduler,
      sealer,
      isNew,
      options,
      listening: new Set(),
      get dispatcher() {
        if (!made.dispatcher) throw new Error('the dispatcher is not started');
        return made.dispatcher;
      },
      async close() {
        await scheduler.stop();
        await store.close();
      },
    };
    made.dispatcher = new Dispatcher(rt, options.logger);
    scheduler.start();
    return rt;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The fixture's keys whose hashes the store still holds (so they are printed only if they work). */
function workingKeys(rt: Runtime, tenants: FixtureKeys[]): SeededKey[] {
  const keys: SeededKey[] = [];
  for (const tenant of tenants) {
    for (const { key } of tenant.apiKeys) {
      const record = rt.store.findByKey('apiKeys', `hash:${hashSecret(key)}`);
      if (!record || record.revokedAt !== null) continue;
      const owner = rt.store.get('tenants', record.tenantId);
      keys.push({ tenantId: record.tenantId, tenantName: owner?.name ?? tenant.name, key });
    }
  }
  return keys;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const logger = options.logger ?? silentLogger;
  // A --seed file is checked first, so a bad one is refused before anything else happens.
  let fixture: FixtureData | null = options.seedFile === undefined ? null : await loadFixtureFile(options.seedFile);
  // A busy port is refused before the data dir is created, locked or seeded.
  await probePort({ port: options.port ?? DEFAULT_PORT, host: options.host ?? DEFAULT_HOST });
  const port = options.port ?? DEFAULT_PORT;
  // The runtime keeps this object as its options: the port is set in it once known (seeding reads it).
  const runtimeOptions: RuntimeOptions = { ...options, port, logger };
  const rt = await createRuntime(runtimeOptions);
  let server: RunningServer | undefined;
  try {
    // A new store is seeded before listening when the port is known; on a port picked at
    // listen (0), right after, before anyone is told the port (the passkey origin names it).
    const seed = async (): Promise<void> => {
      if (!rt.isNew || options.snapshot !== undefined) return;
      fixture ??= await loadFixtureFile(DEFAULT_FIXTURE_PATH);
      await seedFixture(rt, fixture);
      await rt.store.compact();
    };
    if (options.snapshot !== undefined) await restoreSnapshot(rt, options.snapshot);
    if (port !== 0) await seed();
    const appOptions = { logger, version: VERSION };
    const fetch = deferredFetch(probeApp(rt, appOptions), async () => (await import('./app.js')).createApp(rt, appOptions), logger);
    server = await listen({ fetch }, { port, host: options.host ?? DEFAULT_HOST, listening: rt.listening });
    if (port === 0) runtimeOptions.port = server.port;
    // Bound to every address, it is reached on loopback at least: 0.0.0.0 is no address to call.
    runtimeOptions.publicUrl ??= UNSPECIFIED_ADDRESSES.has(server.host) ? `http://127.0.0.1:${server.port}` : server.origin;
    if (port === 0) await seed();
    const keys = fixture?.tenants ?? (await shippedFixtureKeys());
    let closing: Promise<void> | null = null;
    const running = server;
    return {
      rt,
      server,
      baseUrl: `${server.origin}/v1`,
      publicUrl: runtimeOptions.publicUrl,
      dashboardUrl: `${runtimeOptions.publicUrl}/_emulator/ui`,
      seededKeys: workingKeys(rt, keys),
      close() {
        closing ??= (async () => {
          await running.close();
          await usageMeter(rt).flush();
          await rt.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await server?.close();
    await rt.close();
    throw error;
  }
}
