/**
 * A jest `globalSetup`: `"globalSetup": "svc/testing/jest-setup"` with
 * `"globalTeardown": "svc/testing/jest-teardown"`. Jest runs both in its main process, before and
 * after the workers; the workers inherit the environment set here (SVC_URL and the keys).
 */
import { startSharedEmulator, type SharedEmulator } from './shared-emulator.js';

/** Where the teardown finds what the set-up started: jest runs both in one process. */
export const RUNNING = Symbol.for('svc.testing.sharedEmulator');

export default async function globalSetup(): Promise<void> {
  (globalThis as { [RUNNING]?: SharedEmulator })[RUNNING] = await startSharedEmulator();
}
