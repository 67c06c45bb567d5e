/**
 * Which checks of a run may run at the same time, and which starts next (D14).
 * Two checks conflict when both use the emulator clock and one moves it, when one walks the
 * lists and the other creates records, or when one floods the target and the other does not
 * move the clock (types.ts `Uses`). Checks that conflict never overlap, and their order is
 * fixed, so a run's results never depend on which check finished first: every check that holds
 * the clock before those that move it (which then run one after another in catalogue order), so
 * the holders run side by side in one stretch instead of between the moves; on the lists, the
 * walks before every check that creates records, so that those wait for the walks (side by
 * side, as they only read) instead of each walk for all of them; the flood last, beside the
 * moves of the clock that end the run.
 * Among the checks free to start, the one with the longest chain of conflicting checks behind
 * it goes first, then one that holds the clock before one that steps it (the steps wait for the
 * holders anyway), then a `long` one, then catalogue order: the serial lane of the clock starts
 * early, the long checks do not hold up its end, and the checks that conflict with nothing fill
 * the gaps. At `--concurrency 1` the checks simply run in catalogue order, as they always did.
 */
import type { Check } from './types.js';

/**
 * Checks that run at once unless told otherwise (`--concurrency`), and the most allowed. At 32
 * the forty-odd checks that hold or step the clock start within a round trip or two of each
 * other, so the clock's lane moves once they are done instead of once the last has had a slot:
 * through 150 ms of latency a run took 9.7 s at 32 against 10.4 s at 16 (loopback the same).
 */
export const DEFAULT_CONCURRENCY = 32;
export const MAX_CONCURRENCY = 64;

const walks = (check: Check): boolean => check.uses?.lists === 'walks';

const floods = (check: Check): boolean => check.uses?.floods === true;
const moves = (check: Check): boolean => check.uses?.clock === 'moves';

/** Whether `a` and `b` must not run at the same time. */
export function conflicts(a: Check, b: Check): boolean {
  const clock = a.uses?.clock !== undefined && b.uses?.clock !== undefined && (moves(a) || moves(b));
  const lists = (walks(a) && b.creates) || (walks(b) && a.creates);
  const flood = (floods(a) && !moves(b)) || (floods(b) && !moves(a));
  return clock || lists || flood;
}

/**
 * Where a check stands in the one order in which checks that conflict run: the walks of the
 * lists (before the checks that create), then the rest, then the checks that move the clock
 * (after every check that holds it) and the floods (after every check but those); catalogue
 * order within each.
 */
function stage(check: Check): number {
  if (walks(check)) return 0;
  if (floods(check)) return 3;
  return moves(check) ? 2 : 1;
}

/**
 * Whether `first` runs before `then` when they conflict. One order over all checks (stage, then
 * catalogue order), so the checks kept apart never wait on each other in a ring.
 */
export function runsBefore(first: { check: Check; index: number }, then: { check: Check; index: number }): boolean {
  const [a, b] = [stage(first.check), stage(then.check)];
  return a === b ? first.index < then.index : a < b;
}

export interface Schedule {
  /** The index of a check that may start now, marked started; undefined when none may yet. */
  next(): number | undefined;
  /** Marks a started check finished: the checks that waited on it may start. */
  finish(index: number): void;
}

/** One check after another in catalogue order, as `--concurrency 1` runs them: nothing overlaps, so nothing conflicts. */
export function inOrder(count: number): Schedule {
  let next = 0;
  return {
    next: () => (next < count ? next++ : undefined),
    finish: () => undefined,
  };
}

/** A schedule over `checks`, in catalogue order: the indices are positions in that list. */
export function schedule(checks: readonly Check[]): Schedule {
  const count = checks.length;
  const after: number[][] = checks.map(() => []);
  const waitingOn = new Array<number>(count).fill(0);
  for (let a = 0; a < count; a += 1) {
    for (let b = a + 1; b < count; b += 1) {
      if (!conflicts(checks[a]!, checks[b]!)) continue;
      const [first, then] = runsBefore({ check: checks[a]!, index: a }, { check: checks[b]!, index: b }) ? [a, b] : [b, a];
      after[first]!.push(then);
      waitingOn[then]! += 1;
    }
  }
  // The longest chain of conflicting checks behind each one. The graph has no cycle: every edge
  // runs forward in one order (runsBefore).
  const chain = new Array<number>(count).fill(0);
  const known = new Set<number>();
  const visit = (index: number): number => {
    if (!known.has(index)) {
      for (const next of after[index]!) chain[index] = Math.max(chain[index]!, visit(next) + 1);
      known.add(index);
    }
    return chain[index]!;
  };
  for (let index = 0; index < count; index += 1) visit(index);
  const long = checks.map((check) => check.long === true);
  // The clock lane moves the clock only once no check holds it: a stepper that started before a
  // holder would sit in its slot until that holder ended, while the holder's own start waited.
  const steps = checks.map((check) => check.uses?.clock === 'steps');
  /** The longer chain first, then a check that holds the clock before one that steps it, then a long check, then catalogue order. */
  const startsBefore = (a: number, b: number): boolean => {
    if (chain[a] !== chain[b]) return chain[a]! > chain[b]!;
    if (steps[a] !== steps[b]) return steps[b]!;
    if (long[a] !== long[b]) return long[a]!;
    return a < b;
  };
  const ready = new Set<number>();
  for (let index = 0; index < count; index += 1) if (waitingOn[index] === 0) ready.add(index);
  return {
    next() {
      let best: number | undefined;
      for (const index of ready) if (best === undefined || startsBefore(index, best)) best = index;
      if (best !== undefined) ready.delete(best);
      return best;
    },
    finish(index) {
      for (const next of after[index]!) {
        waitingOn[next]! -= 1;
        if (waitingOn[next] === 0) ready.add(next);
      }
    },
  };
}
