/**
 * Moves of the emulator clock (D10), the one way the control plane, the dashboard and
 * the CLI (through the control plane) read, set and advance it: setting changes the time or
 * speed and fires nothing; advancing steps through every due attempt on the way.
 */
import { parseDuration } from '../duration.js';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';

export interface ClockView {
  /** Emulated time, ISO 8601 UTC with milliseconds. */
  now: string;
  /** Emulated seconds per real second. */
  speed: number;
}

export function clockView(rt: Runtime): ClockView {
  return { now: rt.clock.iso(), speed: rt.clock.speed };
}

/**
 * Sets the speed, then the time (moving back is allowed and fires nothing); answers the clock
 * once the move is stored (a shared store then has it for every process). A move that cannot
 * be stored is taken back and answers 503.
 */
export async function setClock(rt: Runtime, change: { now?: string | undefined; speed?: number | undefined }): Promise<ClockView> {
  if (change.speed !== undefined) rt.clock.setSpeed(change.speed);
  if (change.now !== undefined) rt.clock.set(new Date(change.now));
  // Only this move is waited for, not every write under way: a clock call answers within its own work.
  await rt.clock.kept();
  return clockView(rt);
}

/** Jumps `by` (a duration such as `90s` or `1d`) ahead, running every attempt that comes due, in order. */
export async function advanceClock(rt: Runtime, by: string): Promise<ClockView & { fired: number }> {
  const ms = parseDuration(by);
  if (ms === undefined)
    throw new ApiError('validation_error', `by: "${by}" is not a duration such as 90s, 15m, 2h or 1d`, [
      { path: 'by', message: 'a duration such as 90s, 15m, 2h or 1d' },
    ]);
  const from = rt.clock.nowMs();
  const ran = await rt.scheduler.advance(ms);
  await rt.clock.kept();
  // On a shared store other processes make some of the attempts the steps bring due (their
  // timers follow the clock too): count every attempt made in the window, whoever made it.
  const behind = rt.store.sync();
  if (behind === undefined) return { ...clockView(rt), fired: ran };
  await behind;
  return { ...clockView(rt), fired: attemptsBetween(rt, from, rt.clock.nowMs()) };
}

/** Delivery attempts recorded at emulated times in (fromMs, toMs]. */
function attemptsBetween(rt: Runtime, fromMs: number, toMs: number): number {
  let count = 0;
  for (const delivery of rt.store.all('deliveries')) {
    for (const attempt of delivery.attempts) {
      const at = Date.parse(attempt.at);
      if (at > fromMs && at <= toMs) count += 1;
    }
  }
  return count;
}

/** How many attempts wait on the clock. */
export function scheduledCount(rt: Runtime): number {
  return rt.scheduler.waiting.size;
}
