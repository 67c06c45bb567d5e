/**
 * The set-up of the tests that follow deliveries through the control plane: a real emulator
 * whose clock starts at a fixed time and a real webhook receiver, both started before the tests
 * of the file or describe that asks and closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestEmulator, type TestEmulator } from './harness.js';
import { startReceiver, type TestReceiver } from './receiver.js';

/** The emulator's start time: a fixed day, so what the clock prints and schedules is the same each run. */
const START_TIME = new Date('2026-11-21T10:00:00.000Z');

export interface EmulatorWithReceiver {
  readonly svc: TestEmulator;
  readonly receiver: TestReceiver;
}

/** Starts both before the tests where it is called (the receiver answering `respond`) and closes both after them. */
export function emulatorWithReceiver(respond: (index: number) => number): EmulatorWithReceiver {
  let svc: TestEmulator | undefined;
  let receiver: TestReceiver | undefined;
  beforeAll(async () => {
    svc = await startTestEmulator({ clock: { startTime: START_TIME } });
    receiver = await startReceiver(respond);
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the emulator and receiver start in beforeAll; use them inside a test or hook');
    return value;
  };
  return {
    get svc() {
      return started(svc);
    },
    get receiver() {
      return started(receiver);
    },
  };
}
