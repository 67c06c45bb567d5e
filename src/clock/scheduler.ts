/**
 * The scheduler (D10): jobs due at an emulated time, run when the emulator clock
 * reaches it. One real timer waits for the earliest due job at the clock's speed and is
 * re-planned whenever the clock jumps; `advance` steps the clock to each due time in turn, so
 * jobs keep their exact spacing however far the clock moves. A job is known by an id: the
 * webhook dispatcher's jobs are delivery attempts (webhooks/dispatcher.ts).
 */
import type { Clock } from './clock.js';

/** Runs the job `id`, due at `dueMs` (emulated): the time it is recorded at, whatever real time it starts. */
export type Job = (id: string, dueMs: number | undefined) => Promise<void>;

/** Jobs run at once; more wait their turn. */
export const MAX_IN_FLIGHT = 256;
/** Longest single timer; a later due time is re-planned when it fires. */
const MAX_TIMER_MS = 2 ** 30;

export interface SchedulerOptions {
  /**
   * Runs before each step of an advance: a store shared by several processes catches up
   * there, so that a step sees the attempts the others planned (their retries, their events).
   */
  beforeStep?: () => Promise<void> | undefined;
}

export class Scheduler {
  readonly #clock: Clock;
  readonly #beforeStep: () => Promise<void> | undefined;
  #run: Job = () => Promise.reject(new Error('the scheduler has no job runner; call handle() first'));
  /** Jobs waiting: id → emulated due time (ms). */
  readonly #due = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #kickQueued = false;
  #stepping = false;
  #stopped = true;
  #unsubscribe: (() => void) | null = null;

  constructor(clock: Clock, options: SchedulerOptions = {}) {
    this.#clock = clock;
    this.#beforeStep = options.beforeStep ?? (() => undefined);
  }

  /** Names what runs a due job (the webhook dispatcher's attempt); call before start(). */
  handle(run: Job): void {
    this.#run = run;
  }

  /** Starts the timer; from now on a clock change re-plans it. */
  start(): void {
    this.#stopped = false;
    this.#unsubscribe = this.#clock.onChange(() => this.#plan());
    this.#kick();
  }

  /** Stops the timer and waits for jobs under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await Promise.allSettled(this.#inFlight.values());
  }

  /**
   * Plans (or re-plans) job `id` at emulated time `atMs`. While an advance steps the clock, a
   * job already due (a new event's delivery, made meanwhile) starts at once beside it: the
   * advance steps through the jobs it found and the retries they plan, and does not chase
   * every event that steady traffic keeps adding.
   */
  schedule(id: string, atMs: number): void {
    if (this.#stepping && atMs <= this.#clock.nowMs() && !this.#stopped) {
      this.#due.delete(id);
      this.#start(id).catch(() => {});
      return;
    }
    this.#due.set(id, atMs);
    this.#kick();
  }

  /** Forgets job `id` if it waits (one that runs goes on). */
  cancel(id: string): void {
    this.#due.delete(id);
  }

  /** Runs job `id` now, unless it is running already, and resolves when it is done. */
  runNow(id: string): Promise<void> {
    this.#due.delete(id);
    return this.#start(id);
  }

  /** Jobs waiting: id → emulated due time. */
  get waiting(): ReadonlyMap<string, number> {
    return this.#due;
  }

  /**
   * Moves the clock `ms` ahead, running in order every job that comes due on the way: the
   * clock steps to each due time, so each job runs at its own time. Answers how many ran.
   */
  async advance(ms: number): Promise<number> {
    const clock = this.#clock;
    const target = clock.nowMs() + ms;
    let ran = 0;
    this.#stepping = true;
    // The jobs the advance steps to and waits for: those waiting or running when it began
    // (their retries come back under the same id). A job that traffic adds meanwhile (a new
    // event's delivery, here or in another process sharing the store) runs when due but is
    // neither stepped to nor waited for: steady traffic would keep the clock stepping forward
    // by the real time each step takes, and an advance of a day would hardly end.
    const chased = new Set([...this.#due.keys(), ...this.#inFlight.keys()]);
    if (this.#timer) clearTimeout(this.#timer);
    try {
      // The advance waits for the jobs it found due when it began, then for those of each step.
      let stepping: Array<Promise<void>> = [...this.#inFlight.values()];
      for (;;) {
        await Promise.allSettled(stepping);
        await this.#beforeStep()?.catch(() => {});
        const next = this.#earliestDue(chased);
        if (next === undefined || next > target) break;
        if (next > clock.nowMs()) clock.set(new Date(next));
        const due = this.#takeDue(clock.nowMs(), Number.POSITIVE_INFINITY);
        ran += due.length;
        stepping = [];
        for (const [id, at] of due) {
          const job = this.#start(id, at);
          if (chased.has(id)) stepping.push(job);
          else job.catch(() => {});
        }
      }
      if (clock.nowMs() < target) clock.set(new Date(target));
    } finally {
      this.#stepping = false;
      this.#plan();
    }
    return ran;
  }

  #start(id: string, dueMs?: number): Promise<void> {
    const running = this.#inFlight.get(id);
    if (running) return running;
    const job = this.#run(id, dueMs).finally(() => {
      this.#inFlight.delete(id);
      this.#kick();
    });
    this.#inFlight.set(id, job);
    return job;
  }

  #kick(): void {
    if (this.#kickQueued) return;
    this.#kickQueued = true;
    setImmediate(() => {
      this.#kickQueued = false;
      this.#runDue();
    });
  }

  #runDue(): void {
    if (this.#stopped || this.#stepping) return;
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    // A job answers its own failures; one that throws anyway must not take the process down.
    if (room > 0) for (const [id] of this.#takeDue(this.#clock.nowMs(), room)) this.#start(id).catch(() => {});
    this.#plan();
  }

  /** Sets one timer for the earliest due job, in real time at the clock's speed. */
  #plan(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#stopped || this.#stepping) return;
    const next = this.#earliestDue();
    if (next === undefined) return;
    const delay = Math.min(this.#clock.realDelayUntil(next), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#runDue(), delay);
    this.#timer.unref();
  }

  /** The earliest due time of the waiting jobs, or of those among them in `among`. */
  #earliestDue(among?: ReadonlySet<string>): number | undefined {
    let earliest: number | undefined;
    for (const [id, due] of this.#due) if ((among === undefined || among.has(id)) && (earliest === undefined || due < earliest)) earliest = due;
    return earliest;
  }

  /** Removes and answers up to `limit` jobs due at `now` with their due times, earliest first. */
  #takeDue(now: number, limit: number): Array<[string, number]> {
    const taken = [...this.#due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit);
    for (const [id] of taken) this.#due.delete(id);
    return taken;
  }
}
