/**
 * The emulator clock (DESIGN D10): one clock drives everything that waits. It equals real
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

export class Clock {
  #speed: number;
  #anchorReal: number;
  #anchorEmulated: number;
  readonly #realNow: () => number;
  readonly #listeners = new Set<ClockListener>();

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

  /** Emulated time as ISO 8601 UTC with milliseconds (DESIGN D2). */
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

  /** Jumps ahead by `ms` emulated milliseconds. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only advances forwards');
    this.#reanchor(this.nowMs() + ms);
    this.#notify();
  }

  /** Takes the state another process stored (a shared clock, store/postgres/shared.ts) and tells the listeners. */
  adopt(state: ClockState): void {
    this.#anchorReal = state.realMs;
    this.#anchorEmulated = state.emulatedMs;
    this.#speed = validSpeed(state.speed);
    this.#notify();
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

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

function validSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return speed;
}
