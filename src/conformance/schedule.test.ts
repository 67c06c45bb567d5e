/**
 * Which checks may overlap (schedule.ts): the conflict rules as a table, and the whole
 * catalogue walked through the schedule with checks finishing in a shuffled order — no two that
 * conflict ever run together, those that conflict start in their order, and every check runs.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './catalogue.js';
import { conflicts, runsBefore, schedule } from './schedule.js';
import type { Check, Uses } from './types.js';

const check = (id: string, uses?: Omit<Uses, 'why'>, creates = false): Check => ({
  id,
  tags: [id.split('.')[0]!],
  description: id,
  spec: 'part 1',
  profile: 'emulator',
  creates,
  ...(uses ? { uses: { ...uses, why: 'test' } } : {}),
  run: async () => undefined,
});

const mover = check('a.moves', { clock: 'moves' }, true);
const holder = check('b.holds', { clock: 'holds' }, true);
const otherHolder = check('c.holds', { clock: 'holds' });
const walker = check('d.walks', { lists: 'walks' });
const creator = check('e.creates', undefined, true);
const reader = check('f.reads');
const flood = check('g.floods', { floods: true }, true);

describe('conflicts', () => {
  it.each([
    { a: mover, b: holder, conflict: true, why: 'a move of the clock would end what the other holds' },
    { a: mover, b: mover, conflict: true, why: 'two moves of the clock' },
    { a: holder, b: otherHolder, conflict: false, why: 'both only hold the clock' },
    { a: mover, b: reader, conflict: false, why: 'the reader does not use the clock' },
    { a: walker, b: creator, conflict: true, why: 'the list would grow during the walk' },
    { a: walker, b: holder, conflict: true, why: 'the holder creates records too' },
    { a: walker, b: otherHolder, conflict: false, why: 'that holder creates nothing' },
    { a: walker, b: check('d2.walks', { lists: 'walks' }), conflict: false, why: 'two walks only read' },
    { a: creator, b: creator, conflict: false, why: 'creating records disturbs no creator' },
    { a: flood, b: reader, conflict: true, why: 'a flood would hold up the reader' },
    { a: flood, b: holder, conflict: true, why: 'a flood would hold up what the holder times' },
    { a: flood, b: mover, conflict: false, why: 'a move of the clock sends one request at a time and times nothing in real time' },
  ])('$a.id and $b.id: $conflict ($why)', ({ a, b, conflict }) => {
    expect(conflicts(a, b)).toBe(conflict);
    expect(conflicts(b, a)).toBe(conflict);
  });
});

/** A small deterministic shuffle, so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Drives a schedule as a run would: up to `slots` running, one of them (picked by `seed`) finishes at a time. */
function simulate(checks: readonly Check[], slots: number, seed: number) {
  const plan = schedule(checks);
  const running = new Set<number>();
  const started: number[] = [];
  const finished = new Set<number>();
  const overlaps: string[] = [];
  let step = 0;
  while (finished.size < checks.length) {
    for (let next = running.size < slots ? plan.next() : undefined; next !== undefined; next = running.size < slots ? plan.next() : undefined) {
      for (const other of running) if (conflicts(checks[next]!, checks[other]!)) overlaps.push(`${checks[next]!.id} with ${checks[other]!.id}`);
      running.add(next);
      started.push(next);
    }
    if (running.size === 0) throw new Error(`stuck after ${finished.size} of ${checks.length} checks`);
    const done = shuffled([...running], seed + (step += 1))[0]!;
    running.delete(done);
    finished.add(done);
    plan.finish(done);
  }
  return { started, overlaps };
}

describe('the schedule of the catalogue', () => {
  it.each([1, 2, 8, 64])('at concurrency %i runs every check once, never two that conflict together, those that conflict in order', (slots) => {
    for (const seed of [1, 2, 3]) {
      const { started, overlaps } = simulate(CATALOGUE, slots, seed);
      expect(overlaps).toEqual([]);
      expect([...started].sort((a, b) => a - b)).toEqual(CATALOGUE.map((_, index) => index));
      const position = new Map(started.map((index, order) => [index, order]));
      for (const [a, first] of CATALOGUE.entries()) {
        for (const [b, then] of CATALOGUE.entries()) {
          if (a >= b || !conflicts(first, then)) continue;
          const [earlier, later] = runsBefore({ check: first, index: a }, { check: then, index: b }) ? [a, b] : [b, a];
          expect(position.get(earlier)! < position.get(later)!, `${CATALOGUE[earlier]!.id} before ${CATALOGUE[later]!.id}`).toBe(true);
        }
      }
    }
  });

  it('starts the walks of the lists first, then the lane of the clock, then the rest, and the flood after all but the moves of the clock', () => {
    const ids = simulate(CATALOGUE, 1, 1).started.map((index) => CATALOGUE[index]!.id);
    expect(ids.slice(0, 2)).toEqual(['apps.pages-agree', 'users.pages-agree']);
    const firstFree = ids.findIndex((id) => CATALOGUE.find((c) => c.id === id)!.uses === undefined);
    expect(ids.slice(2, firstFree).every((id) => CATALOGUE.find((c) => c.id === id)!.uses?.clock !== undefined)).toBe(true);
    const flood = ids.indexOf('rate-limits.429');
    expect(ids.slice(flood + 1).filter((id) => CATALOGUE.find((c) => c.id === id)!.uses?.clock !== 'moves')).toEqual([]);
  });

  it('runs the walks side by side, and the flood beside the moves of the clock once every other check has ended', () => {
    const byId = (id: string) => CATALOGUE.findIndex((c) => c.id === id);
    const plan = schedule(CATALOGUE);
    const first = [plan.next(), plan.next()];
    expect(first).toEqual(expect.arrayContaining([byId('apps.pages-agree'), byId('users.pages-agree')]));
    // Drive the run until only the moves of the clock and the flood are left: the flood starts while a move still runs.
    const started = new Set<number>(first as number[]);
    const running = new Set<number>(first as number[]);
    let sawFloodBesideMove = false;
    while (started.size < CATALOGUE.length) {
      for (let next = plan.next(); next !== undefined; next = plan.next()) {
        started.add(next);
        running.add(next);
        if (CATALOGUE[next]!.uses?.floods === true) sawFloodBesideMove = [...running].some((index) => CATALOGUE[index]!.uses?.clock === 'moves');
      }
      // End every running check but a move of the clock, or the first move when nothing else runs.
      const done = [...running].find((index) => CATALOGUE[index]!.uses?.clock !== 'moves') ?? [...running][0]!;
      running.delete(done);
      plan.finish(done);
    }
    expect(sawFloodBesideMove).toBe(true);
  });

  it('orders the checks that conflict: walks before creators, holders of the clock before movers whatever the catalogue says, catalogue order otherwise, the flood last', () => {
    const at = (c: Check, index: number) => ({ check: c, index });
    expect(runsBefore(at(walker, 5), at(creator, 1))).toBe(true);
    expect(runsBefore(at(holder, 5), at(mover, 1))).toBe(true);
    expect(runsBefore(at(mover, 1), at(holder, 5))).toBe(false);
    expect(runsBefore(at(mover, 1), at(check('h.moves', { clock: 'moves' }), 2))).toBe(true);
    expect(runsBefore(at(creator, 1), at(holder, 2))).toBe(true);
    expect(runsBefore(at(flood, 1), at(creator, 2))).toBe(false);
  });

  it('runs every check that holds the clock before the first that moves it', () => {
    const ids = simulate(CATALOGUE, 8, 1).started.map((index) => CATALOGUE[index]!);
    const firstMove = ids.findIndex((c) => c.uses?.clock === 'moves');
    expect(
      ids
        .slice(firstMove)
        .filter((c) => c.uses?.clock === 'holds')
        .map((c) => c.id),
    ).toEqual([]);
  });

  it('starts the checks that hold the clock before those that step it, which wait for them anyway', () => {
    const stepper: Check = { ...check('a.steps', { clock: 'steps' }), long: true };
    const holds = check('b.holds', { clock: 'holds' });
    const plan = schedule([stepper, holds, mover]);
    expect(plan.next()).toBe(1);
    expect(plan.next()).toBe(0);
    expect(plan.next()).toBeUndefined();
  });

  it('starts a long check before short ones free to start at the same time', () => {
    const short = check('a.short', { clock: 'holds' });
    const long: Check = { ...check('b.long', { clock: 'holds' }), long: true };
    const plan = schedule([short, long, mover]);
    expect(plan.next()).toBe(1);
    expect(plan.next()).toBe(0);
    expect(plan.next()).toBeUndefined();
  });
});
