/**
 * The emulator clock kept in the data dir (D10), so that a restart — clean, or a
 * kill -9 — finds it where it would be had the process kept running: an offset made by
 * `svc clock advance 1d` survives, and a retry due in a minute of emulated time is still due
 * in a minute. The file, `clock.json`, holds the clock as a function of real time (one real
 * instant, the emulated instant it maps to, and the speed); it is rewritten, atomically and
 * fsynced, each time the clock is set, advanced or changes speed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from '../durable-file.js';
import { Clock, type ClockOptions, type ClockState } from './clock.js';

export const CLOCK_FILE = 'clock.json';

const clockFileSchema = z.object({
  realMs: z.number().finite(),
  emulatedMs: z.number().finite(),
  speed: z.number().finite().positive(),
});

/** Raised when clock.json cannot be read: the server refuses to start rather than jump in time. */
export class ClockFileError extends Error {
  constructor(path: string, why: string) {
    super(`${path} ${why}; fix or delete it (the clock then starts at real time), or start with --start-time`);
    this.name = 'ClockFileError';
  }
}

/** The state stored in `dir`, or undefined when there is none yet. */
export function readClockState(dir: string): ClockState | undefined {
  const path = join(dir, CLOCK_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ClockFileError(path, `cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ClockFileError(path, 'is not JSON');
  }
  const parsed = clockFileSchema.safeParse(json);
  if (!parsed.success) throw new ClockFileError(path, 'does not hold realMs, emulatedMs and a positive speed');
  return parsed.data;
}

/** Writes the state to `dir` so that no crash leaves a torn file (durable-file.ts). */
export function writeClockState(dir: string, state: ClockState): void {
  writeFileDurably(join(dir, CLOCK_FILE), `${JSON.stringify(state)}\n`);
}

/**
 * The clock of a data dir: the stored one, unless `options` names a start time or a speed,
 * which win (`--start-time`, `--clock-speed`). It is stored at once (unless it goes on as
 * stored: a start then writes and syncs nothing) and after every change. Without a data dir
 * (`--in-memory`) it is a plain clock.
 */
export function openClock(dataDir: string | null, options: ClockOptions = {}): Clock {
  if (dataDir === null) return new Clock(options);
  const stored = readClockState(dataDir);
  const clock = new Clock({ ...options, ...(stored === undefined ? {} : { resume: stored }) });
  const state = clock.state();
  if (stored?.realMs !== state.realMs || stored.emulatedMs !== state.emulatedMs || stored.speed !== state.speed) writeClockState(dataDir, state);
  clock.onChange(() => writeClockState(dataDir, clock.state()));
  return clock;
}
