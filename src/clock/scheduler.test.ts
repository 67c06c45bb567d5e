/**
 * The scheduler on its own: jobs run when the emulator clock reaches them, `advance` runs them
 * in order each at its own emulated time, a job never runs twice at once, and a clock that
 * jumps ahead or speeds up brings the next job forward.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Clock } from './clock.js';
import { Scheduler } from './scheduler.js';

const START = Date.parse('2026-11-21T10:00:00.000Z');

describe('Scheduler', () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
  });

  function start(clock: Clock, run: (id: string, dueMs: number | undefined, at: number) => Promise<void> | void) {
    scheduler = new Scheduler(clock);
    scheduler.handle(async (id, dueMs) => run(id, dueMs, clock.nowMs()));
    scheduler.start();
    return scheduler;
  }

  it('advance runs every job on the way, in order, with the clock at each due time', async () => {
    // Real time stands still here, so the clock moves only by the scheduler's steps: a job that
    // starts a millisecond of real time after its step would otherwise read one millisecond late.
    const clock = new Clock({ startTime: new Date(START), realNow: () => START });
    const ran: Array<[string, number | undefined, number]> = [];
    const s = start(clock, (id, due, at) => void ran.push([id, due, at]));
    s.schedule('late', START + 3_600_000);
    s.schedule('early', START + 60_000);
    s.schedule('beyond', START + 2 * 86_400_000);
    expect(await s.advance(86_400_000)).toBe(2);
    expect(ran).toEqual([
      ['early', START + 60_000, START + 60_000],
      ['late', START + 3_600_000, START + 3_600_000],
    ]);
    expect(clock.nowMs()).toBe(START + 86_400_000);
    expect([...s.waiting.keys()]).toEqual(['beyond']);
  });

  it('runs a job once at a time: runNow while it runs waits for that run', async () => {
    const clock = new Clock();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = start(clock, async () => {
      runs += 1;
      await gate;
    });
    const first = s.runNow('job');
    const second = s.runNow('job');
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
  });

  it('runs a job due now by itself, and one brought forward when the clock is set ahead', async () => {
    const clock = new Clock();
    const ran: string[] = [];
    const s = start(clock, (id) => void ran.push(id));
    s.schedule('now', clock.nowMs());
    s.schedule('in-a-day', clock.nowMs() + 86_400_000);
    // Each job runs on a later turn of the event loop (setImmediate, then a timer): a loaded
    // machine may take longer than expect.poll's default second to get there.
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['now']);
    clock.set(new Date(clock.nowMs() + 86_400_000));
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['now', 'in-a-day']);
  });

  it('advance steps through the jobs it found and their retries, not through jobs that traffic keeps adding', async () => {
    // Another process sharing the store plans each new event's delivery a little ahead of this
    // one's clock; an advance that stepped to each would move the clock only by the real time
    // of a step, and an advance of a day would not end while traffic lasts.
    const clock = new Clock({ startTime: new Date(START), realNow: () => START });
    const ran: string[] = [];
    let events = 0;
    const s = new Scheduler(clock, {
      beforeStep: () => {
        if (events < 1_000) s.schedule(`event-${events++}`, clock.nowMs() + 5);
        return undefined;
      },
    });
    scheduler = s;
    s.handle(async (id) => {
      ran.push(id);
      // The job found at the start fails once: its retry comes back under its id, an hour on.
      if (id === 'found' && ran.filter((one) => one === 'found').length === 1) s.schedule('found', clock.nowMs() + 3_600_000);
    });
    s.start();
    s.schedule('found', START + 60_000);
    await s.advance(86_400_000);
    expect(ran.filter((id) => id === 'found')).toHaveLength(2);
    expect(events).toBeLessThan(10);
    expect(clock.nowMs()).toBe(START + 86_400_000);
  });
});
