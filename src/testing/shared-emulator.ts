/**
 * One emulator for a whole test run, for a test runner's global set-up: started on a
 * free loopback port with a temporary data dir, or, under `svc exec`, the one svc exec started
 * (SVC_URL is set). Either way the run's workers find it through the same environment svc exec
 * gives a command (SVC_URL, SVC_ORIGIN, SVC_API_KEY, SVC_SECOND_API_KEY), set before they start.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator.js';

/** The environment a test run finds the emulator by (what `svc exec` gives its command; docs/testing-with-svc.md). */
export function emulatorEnv(emulator: Emulator): Record<string, string> {
  const [first, second] = emulator.seededKeys;
  const env: Record<string, string> = {
    SVC_URL: emulator.baseUrl,
    SVC_ORIGIN: emulator.server.origin,
  };
  if (first !== undefined) Object.assign(env, { SVC_API_KEY: first.key, SVC_TENANT_ID: first.tenantId });
  // The second key is another tenant's when the fixture has one: what isolation tests need.
  const other = emulator.seededKeys.find((key) => key.tenantId !== first?.tenantId) ?? second;
  if (other !== undefined) Object.assign(env, { SVC_SECOND_API_KEY: other.key, SVC_SECOND_TENANT_ID: other.tenantId });
  if (emulator.rt.options.adminToken !== undefined) env['SVC_ADMIN_TOKEN'] = emulator.rt.options.adminToken;
  return env;
}

export interface SharedEmulator {
  /** The base URL (http://127.0.0.1:<port>/v1). */
  url: string;
  /** Whether this set-up started it (and so stops it). */
  started: boolean;
  stop(): Promise<void>;
}

/**
 * Starts the run's emulator unless SVC_URL names one already, and sets the environment the
 * workers read. `options` are startEmulator()'s (a fixture as `seedFile`, say).
 */
export async function startSharedEmulator(options: EmulatorOptions = {}): Promise<SharedEmulator> {
  const given = process.env['SVC_URL'];
  if (given !== undefined && given !== '') return { url: given, started: false, stop: () => Promise.resolve() };
  const dataDir = options.dataDir ?? (options.inMemory ? undefined : await mkdtemp(join(tmpdir(), 'svc-run-')));
  const emulator = await startEmulator({ port: 0, ...options, ...(dataDir === undefined ? {} : { dataDir }) });
  const env = emulatorEnv(emulator);
  Object.assign(process.env, env);
  return {
    url: emulator.baseUrl,
    started: true,
    async stop() {
      await emulator.close();
      for (const name of Object.keys(env)) delete process.env[name];
      if (dataDir !== undefined && options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
