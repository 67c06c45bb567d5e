/**
 * The emulator clock (D10): one clock drives everything that waits. It equals real
 * time until someone advances it, sets it, or makes it run faster.
 */

export interface ClockOptions {
  /** Emulated seconds per real second (default: the resumed clock's, else 1). */
  speed?: number;
  /** Emulated time at start (default: the resumed clock's, else now). */
  startTime?: Date;
  /** A clock stored before (clock/persisted.ts), to go on from. */
  resume?: ClockState;
  /** Real time source, for tests. */
  realNow?: () => number;
}

/** The clock as a function of real time: at real instant `realMs` it read `emulatedMs`, running at `speed`. */
export interface ClockState {
  realMs: number;
  emulatedMs: number;
  speed: number;
}

export type ClockListener = () => void;

/** Stores a clock state where others read it (a shared store); rejects when it cannot. */
export type ClockKeeper = (state: ClockState) => Promise<void>;

export class Clock {
  #speed: number;
  #anchorReal: number;
  #anchorEmulated: number;
  readonly #realNow: () => number;
  readonly #listeners = new Set<ClockListener>();
  #keeper: ClockKeeper | null = null;
  /** The state last stored (or adopted from the store), to fall back to when a save fails. */
  #stored: ClockState | null = null;
  #keeping: Promise<void> = Promise.resolve();

  constructor(options: ClockOptions = {}) {
    this.#realNow = options.realNow ?? Date.now;
    const { resume } = options;
    this.#anchorReal = resume?.realMs ?? this.#realNow();
    this.#anchorEmulated = resume?.emulatedMs ?? this.#anchorReal;
    this.#speed = validSpeed(resume?.speed ?? 1);
    if (options.speed !== undefined && options.speed !== this.#speed) {
      this.#reanchor(this.nowMs());
      this.#speed = validSpeed(options.speed);
    }
    if (options.startTime !== undefined) this.#reanchor(options.startTime.getTime());
  }

  /** What clock/persisted.ts stores: enough to go on after a restart as if the process had kept running. */
  state(): ClockState {
    return { realMs: this.#anchorReal, emulatedMs: this.#anchorEmulated, speed: this.#speed };
  }

  /** Emulated time in epoch milliseconds. */
  nowMs(): number {
    return Math.floor(this.#anchorEmulated + (this.#realNow() - this.#anchorReal) * this.#speed);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Emulated time as ISO 8601 UTC with milliseconds (D2). */
  iso(): string {
    return this.now().toISOString();
  }

  get speed(): number {
    return this.#speed;
  }

  /** Changes the speed from now on, keeping the current emulated time. */
  setSpeed(speed: number): void {
    this.#reanchor(this.nowMs());
    this.#speed = validSpeed(speed);
    this.#notify();
  }

  /** Sets the emulated time. Moving backwards is allowed but fires nothing. */
  set(time: Date): void {
    this.#reanchor(time.getTime());
    this.#notify();
  }

  /**
   * Sets the emulated time and the speed together, as one change for the listeners (a snapshot's
   * restore): the data dir's clock file is then written once, not once for each.
   */
  setTimeAndSpeed(time: Date, speed: number): void {
    const valid = validSpeed(speed);
    this.#reanchor(time.getTime());
    this.#speed = valid;
    this.#notify();
  }

  /** Jumps ahead by `ms` emulated milliseconds. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only advances forwards');
    this.#reanchor(this.nowMs() + ms);
    this.#notify();
  }

  /** Takes the state another process stored (a shared clock, store/postgres/shared.ts) and tells the listeners. */
  adopt(state: ClockState): void {
    if (this.#keeper) this.#stored = state;
    this.#take(state);
  }

  /**
   * Stores every change from now on with `keeper` (a clock shared through a database). A change
   * whose save fails is taken back: the clock returns to the state last stored, so this process
   * never runs on a time the others do not have.
   */
  keepWith(keeper: ClockKeeper): void {
    this.#keeper = keeper;
    this.#stored = this.state();
  }

  /** Settles once the latest change is stored; rejects when it could not be (the clock is then back at the stored state). */
  kept(): Promise<void> {
    return this.#keeping;
  }

  /** Real milliseconds until the emulated time reaches `emulatedMs` (0 when already due). */
  realDelayUntil(emulatedMs: number): number {
    const remaining = emulatedMs - this.nowMs();
    return remaining <= 0 ? 0 : Math.ceil(remaining / this.#speed);
  }

  /** Called whenever the clock jumps or changes speed, so schedulers can re-plan. */
  onChange(listener: ClockListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #reanchor(emulated: number): void {
    this.#anchorReal = this.#realNow();
    this.#anchorEmulated = emulated;
  }

  #take(state: ClockState): void {
    this.#anchorReal = state.realMs;
    this.#anchorEmulated = state.emulatedMs;
    this.#speed = validSpeed(state.speed);
    this.#notify(false);
  }

  #notify(local = true): void {
    if (local && this.#keeper) this.#keep(this.#keeper);
    for (const listener of this.#listeners) listener();
  }

  #keep(keeper: ClockKeeper): void {
    const state = this.state();
    const keeping = keeper(state).then(
      () => {
        this.#stored = state;
      },
      (error: unknown) => {
        // Saves are stored in the order they were made, so only the latest decides where the clock stays.
        if (this.#keeping === keeping && this.#stored !== null) this.#take(this.#stored);
        throw error;
      },
    );
    keeping.catch(() => {});
    this.#keeping = keeping;
  }
}

function validSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return speed;
}
