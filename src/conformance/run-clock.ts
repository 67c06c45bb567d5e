/**
 * The emulator clock across a run (D10). The checks that hold a TOTP code, a challenge or
 * a session measure what they hold in real seconds, so a clock running at ×3600 or ×86,400 would
 * end them between two requests. The run therefore keeps the clock at real speed while it runs
 * (from where it found it), puts the speed back at the end, and says how far the clock moved.
 */
import type { Client } from '../client/index.js';

export interface ClockReading {
  now: string;
  speed: number;
}

/** What a run did to the emulator clock, for the reports and the closing line. */
export interface ClockMove {
  before: ClockReading;
  after: ClockReading;
  /** The speed the run set while it ran, when it differed from the one found (else undefined). */
  heldAt?: number;
  /** Why the speed could not be put back, when it could not. */
  restoreError?: string;
}

/** The speed a run holds the clock at: the one every time-sensitive step of the suite is written for. */
export const RUN_SPEED = 1;

/** The clock, or undefined where the control plane does not answer it (the checks that need it will say so). */
async function read(client: Client): Promise<ClockReading | undefined> {
  const result = await client.emulator.clock().catch(() => undefined);
  if (result === undefined || !result.ok) return undefined;
  const { now, speed } = result.body.data;
  return typeof now === 'string' && typeof speed === 'number' ? { now, speed } : undefined;
}

export interface HeldClock {
  /**
   * Puts the speed back as found, once `cleanup` has settled (the run's cleanup: its removals act
   * through sessions timed at the run's speed), and reads where the clock ended. With no speed
   * to put back it reads at once: the cleanup moves no clock. Never rejects.
   */
  release(cleanup?: Promise<unknown>): Promise<ClockMove>;
}

/**
 * Reads the clock and, when it runs at another speed, sets real speed for the run. Answers
 * undefined where the control plane has no clock (a real deployment runs in real time).
 */
export async function holdClock(client: Client): Promise<HeldClock | undefined> {
  const before = await read(client);
  if (before === undefined) return undefined;
  let heldAt: number | undefined;
  if (before.speed !== RUN_SPEED) {
    const set = await client.emulator.setClock({ speed: RUN_SPEED });
    if (!set.ok) throw new Error(`POST /_emulator/clock {"speed":${RUN_SPEED}} answered ${set.status}: ${set.text.slice(0, 200)}`);
    heldAt = RUN_SPEED;
  }
  return {
    async release(cleanup) {
      let restoreError: string | undefined;
      if (heldAt !== undefined) {
        await cleanup?.catch(() => undefined);
        const back = await client.emulator.setClock({ speed: before.speed }).catch((error: unknown) => error);
        if (back instanceof Error) restoreError = back.message;
        else if (!(back as { ok: boolean }).ok) restoreError = `POST /_emulator/clock answered ${(back as { status: number }).status}`;
      }
      const after = (await read(client)) ?? before;
      return { before, after, ...(heldAt === undefined ? {} : { heldAt }), ...(restoreError === undefined ? {} : { restoreError }) };
    },
  };
}

/** "4 d 2 h 13 min" for a span of emulated milliseconds (the closing line of a run). */
export function spanText(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  let rest = Math.round(Math.abs(ms) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 && parts.length < 3) parts.push(`${count} ${unit}`);
  }
  return `${sign}${parts.length === 0 ? '0 s' : parts.join(' ')}`;
}

/** The closing line about the clock: how far the run moved it, and the speed it kept and put back. */
export function clockMoveText(move: ClockMove): string {
  const moved = Date.parse(move.after.now) - Date.parse(move.before.now);
  const held =
    move.heldAt === undefined
      ? ''
      : move.restoreError === undefined
        ? `; it ran at ×${move.heldAt} during the run and is back at ×${move.before.speed}`
        : `; it ran at ×${move.heldAt} during the run and could not be put back at ×${move.before.speed} (${move.restoreError})`;
  return `the emulator clock moved ${spanText(moved)} (from ${move.before.now} to ${move.after.now})${held}`;
}
