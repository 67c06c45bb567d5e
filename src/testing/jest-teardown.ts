/** The jest `globalTeardown` that goes with jest-setup.ts: stops the emulator it started. */
import type { SharedEmulator } from './shared-emulator.js';
import { RUNNING } from './jest-setup.js';

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { [RUNNING]?: SharedEmulator };
  await holder[RUNNING]?.stop();
  delete holder[RUNNING];
}
