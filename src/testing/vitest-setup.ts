/**
 * A vitest `globalSetup`: `globalSetup: ['svc/testing/vitest-setup']` starts one
 * emulator for the run (or uses the one `svc exec` started) before the workers start, and stops
 * it after. Each worker then takes its own tenant with `workerTenant()` from `svc/testing`.
 */
import { startSharedEmulator } from './shared-emulator.js';

export default async function setup(): Promise<() => Promise<void>> {
  const emulator = await startSharedEmulator();
  return () => emulator.stop();
}
