/**
 * The emulator clock shared by the checks of a run (D10, D14). A check that steps the clock
 * (types.ts Uses `clock: 'steps'`) does not move it itself: it asks to be woken once the clock
 * has moved on by so much from where it was when it asked (ctx.stepClock), and the lane moves
 * the clock only when every running check that uses it (holds or steps) is waiting so, by the
 * least any of them still needs. A check that holds a session, a code or a challenge thus never
 * sees the clock move under it, each stepper wakes where its own step would have left the clock,
 * and the steppers prepare side by side instead of one after another: the clock waits on the
 * checks, and no check waits on a sleep.
 *
 * The run holds the clock at real speed (run-clock.ts), so a step asked for is measured from
 * the moment it was asked: the real time that passed while others still worked counts toward it.
 *
 * A step may say how far past it the clock may go (`upTo`: past a freshness or an expiry, any
 * move up to an hour shows the same). The lane then moves the clock by as much as the nearest
 * of those bounds allows, no more than the furthest step still owed, and wakes every check whose
 * step that move covers at once: checks whose steps agree so wake together and work side by side,
 * instead of each waiting while the others' steps are taken one after another.
 */
import type { ApiResult, Client } from '../client/index.js';
import { formatDuration, parseDuration } from '../duration.js';
import { outsideChecks } from './scope.js';

interface Waiter {
  /** Emulated milliseconds the clock must move from where it was when the check asked. */
  by: number;
  /** The most it may move meanwhile (no less than `by`). */
  upTo: number;
  /** Real time of the ask (performance.now()). */
  since: number;
  /** Emulated milliseconds the lane has moved the clock since. */
  moved: number;
  wake(result: ApiResult<unknown>): void;
  fail(error: unknown): void;
}

/** Stopped a step of a check that ended (or a run that stopped) before the clock reached it. */
export class StepAbandoned extends Error {
  constructor(checkId: string) {
    super(`${checkId} ended while it waited on the emulator clock`);
    this.name = 'StepAbandoned';
  }
}

export class ClockLane {
  private readonly members = new Set<string>();
  private readonly waiting = new Map<string, Waiter>();
  /** The lane's own call to the clock, while it is under way. */
  private moving: Promise<void> | undefined;
  /** Set once the run stops (Ctrl-C): the clock is not moved again, and no waiter is woken. */
  private closed = false;

  constructor(private readonly client: Client) {}

  /** A check that uses the clock starts: the lane moves the clock only while it waits, or once it has ended. */
  async enter(checkId: string): Promise<void> {
    // A check that starts while the clock is being moved starts once it stands still.
    while (this.moving !== undefined) await this.moving;
    this.members.add(checkId);
  }

  /** A check that used the clock has ended: the others may be woken without it. */
  leave(checkId: string): void {
    this.members.delete(checkId);
    const waiter = this.waiting.get(checkId);
    this.waiting.delete(checkId);
    waiter?.fail(new StepAbandoned(checkId));
    this.consider();
  }

  /**
   * Answers POST /_emulator/clock/advance's answer (or GET /_emulator/clock's, when the real time
   * that passed already covers the step) once the clock has moved `by` since the call, and at
   * most `upTo` (by default, `by`: exactly the step, as far as real time lets).
   */
  step(checkId: string, by: string, upTo?: string): Promise<ApiResult<unknown>> {
    const ms = parseDuration(by);
    // A step the lane cannot measure, or asked by a check it does not know, goes to the target as asked.
    if (ms === undefined || !this.members.has(checkId)) return this.client.emulator.advance(by);
    const most = Math.max(ms, (upTo === undefined ? undefined : parseDuration(upTo)) ?? ms);
    return new Promise((wake, fail) => {
      if (this.closed) return fail(new StepAbandoned(checkId));
      this.waiting.set(checkId, { by: ms, upTo: most, since: performance.now(), moved: 0, wake, fail });
      this.consider();
    });
  }

  /** The run stops: every step still waiting is abandoned, and the clock stays where it is. */
  close(): void {
    this.closed = true;
    for (const [id, waiter] of this.waiting) waiter.fail(new StepAbandoned(id));
    this.waiting.clear();
  }

  /**
   * Moves the clock when every check of the lane waits on it: as far as the nearest bound still
   * allows (upTo), but no further than the furthest step still owed. That is never less than the
   * least step owed, so each move wakes one check at least.
   */
  private consider(): void {
    if (this.closed || this.moving !== undefined || this.waiting.size === 0) return;
    for (const member of this.members) if (!this.waiting.has(member)) return;
    const now = performance.now();
    const gone = (waiter: Waiter): number => now - waiter.since + waiter.moved;
    const owed = new Map([...this.waiting].map(([id, waiter]) => [id, waiter.by - gone(waiter)]));
    const bound = Math.min(...[...this.waiting.values()].map((waiter) => waiter.upTo - gone(waiter)));
    const least = Math.max(0, Math.ceil(Math.min(bound, Math.max(...owed.values()))));
    // Made outside any check: it is the lane's call, and no check's budget or end stops it.
    const call = outsideChecks(() => (least > 0 ? this.client.emulator.advance(formatDuration(least)) : this.client.emulator.clock()));
    this.moving = call
      .then(
        (result) => {
          for (const [id, waiter] of this.waiting) {
            // A failed move wakes every waiter with the answer, which its check then judges.
            if (result.ok && owed.get(id)! > least) {
              waiter.moved += least;
              continue;
            }
            this.waiting.delete(id);
            waiter.wake(result);
          }
        },
        (error: unknown) => {
          for (const waiter of this.waiting.values()) waiter.fail(error);
          this.waiting.clear();
        },
      )
      .finally(() => {
        this.moving = undefined;
        this.consider();
      });
  }
}
