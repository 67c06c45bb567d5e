/**
 * The clock lane (clock-lane.ts) through the runner, against a real emulator: checks that step
 * the clock prepare beside one that holds it, the clock moves only once every check that uses
 * it waits, by the least step owed first, and each stepper wakes where its own step would have
 * left the clock, counting the real time it waited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, startTestEmulator, type TestEmulator } from '../test-support/harness.js';
import { runSuite } from './runner.js';
import type { Check, CheckContext, Uses } from './types.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let svc: TestEmulator;
beforeAll(async () => {
  svc = await startTestEmulator();
});
afterAll(async () => {
  await svc.close();
});

async function emulatorNow(ctx: CheckContext): Promise<number> {
  const result = await ctx.client.emulator.clock();
  if (!result.ok) throw new Error(`GET /_emulator/clock answered ${result.status}`);
  return Date.parse(result.body.data.now);
}

function check(id: string, clock: NonNullable<Uses['clock']>, run: (ctx: CheckContext) => Promise<void>): Check {
  return {
    id,
    tags: [id.split('.')[0]!],
    description: id,
    spec: 'D10',
    profile: 'emulator',
    creates: false,
    uses: { clock, why: 'test' },
    run,
  };
}

describe('the clock lane', () => {
  it('moves the clock only while every check that uses it waits, by the least step first, to where each step asked', async () => {
    const log: string[] = [];
    const seen = new Map<string, { asked: number; woke: number }>();
    const stepper = (id: string, by: string, byMs: number, delay: number) =>
      check(id, 'steps', async (ctx) => {
        await sleep(delay);
        const asked = await emulatorNow(ctx);
        log.push(`ask ${id}`);
        const answer = await ctx.stepClock(by);
        if (!answer.ok) throw new Error(`the step answered ${answer.status}`);
        const woke = Date.parse((answer.body as { data: { now: string } }).data.now);
        log.push(`woke ${id}`);
        seen.set(id, { asked, woke });
        expect(woke - asked).toBeGreaterThanOrEqual(byMs);
      });
    const holder = check('a.holds', 'holds', async (ctx) => {
      const first = await emulatorNow(ctx);
      // Long enough that both steppers ask while it holds the clock.
      await sleep(600);
      const last = await emulatorNow(ctx);
      log.push('end a.holds');
      seen.set('a.holds', { asked: first, woke: last });
    });
    const report = await runSuite({
      target: { baseUrl: svc.baseUrl, apiKey: ACME_KEY, timeoutMs: 10_000 },
      selected: [holder, stepper('b.steps-long', '10m', 600_000, 0), stepper('c.steps-short', '30s', 30_000, 100)].map((one) => ({ check: one })),
      profile: 'emulator',
      receiver: { host: '127.0.0.1', port: 0 },
      concurrency: 8,
    });
    expect(report.results.map((r) => [r.id, r.outcome, r.reason])).toEqual([
      ['a.holds', 'passed', undefined],
      ['b.steps-long', 'passed', undefined],
      ['c.steps-short', 'passed', undefined],
    ]);
    // Both asked while the holder held the clock, which did not move under it.
    expect(log.indexOf('ask b.steps-long')).toBeLessThan(log.indexOf('end a.holds'));
    expect(log.indexOf('ask c.steps-short')).toBeLessThan(log.indexOf('end a.holds'));
    const held = seen.get('a.holds')!;
    expect(held.woke - held.asked).toBeLessThan(5_000);
    // The short step first, then the long one; each wakes where its own step leaves the clock
    // (the real seconds waited counted in), not past it by the other's step.
    expect(log.slice(-2)).toEqual(['woke c.steps-short', 'woke b.steps-long']);
    const short = seen.get('c.steps-short')!;
    const long = seen.get('b.steps-long')!;
    expect(short.woke - short.asked).toBeLessThan(30_000 + 5_000);
    expect(long.woke - long.asked).toBeLessThan(600_000 + 5_000);
  }, 30_000);

  it('wakes at once the checks whose steps one move covers, never past a bound a waiting check set', async () => {
    const seen = new Map<string, { asked: number; woke: number }>();
    const stepper = (id: string, by: string, upTo: string | undefined) =>
      check(id, 'steps', async (ctx) => {
        const asked = await emulatorNow(ctx);
        const answer = await ctx.stepClock(by, upTo);
        if (!answer.ok) throw new Error(`the step answered ${answer.status}`);
        seen.set(id, { asked, woke: Date.parse((answer.body as { data: { now: string } }).data.now) });
      });
    const report = await runSuite({
      target: { baseUrl: svc.baseUrl, apiKey: ACME_KEY, timeoutMs: 10_000 },
      // A step of 30 s that may go up to 10 minutes, one of exactly 5 minutes, and one of at least 20 minutes.
      selected: [stepper('a.loose', '30s', '10m'), stepper('b.exact', '5m', undefined), stepper('c.far', '20m', '1h')].map((one) => ({ check: one })),
      profile: 'emulator',
      receiver: { host: '127.0.0.1', port: 0 },
      concurrency: 8,
    });
    expect(report.results.map((r) => [r.id, r.outcome, r.reason])).toEqual([
      ['a.loose', 'passed', undefined],
      ['b.exact', 'passed', undefined],
      ['c.far', 'passed', undefined],
    ]);
    const [loose, exact, far] = ['a.loose', 'b.exact', 'c.far'].map((id) => seen.get(id)!);
    // One move of 5 minutes wakes both the exact step and the loose one, which 5 minutes covers.
    expect(loose!.woke).toBe(exact!.woke);
    expect(exact!.woke - exact!.asked).toBeGreaterThanOrEqual(300_000);
    expect(exact!.woke - exact!.asked).toBeLessThan(300_000 + 5_000);
    // The far step waited for a move of its own, no further than its least: 20 minutes in all.
    expect(far!.woke).toBeGreaterThan(exact!.woke);
    expect(far!.woke - far!.asked).toBeGreaterThanOrEqual(1_200_000);
    expect(far!.woke - far!.asked).toBeLessThan(1_200_000 + 5_000);
  }, 30_000);

  it('lets a check that uses no clock step it at once', async () => {
    let moved = 0;
    const { uses: _none, ...free0 } = check('a.free', 'holds', async () => undefined);
    const free: Check = {
      ...free0,
      run: async (ctx) => {
        const before = await emulatorNow(ctx);
        const answer = await ctx.stepClock('1h');
        moved = Date.parse((answer.body as { data: { now: string } }).data.now) - before;
      },
    };
    const report = await runSuite({
      target: { baseUrl: svc.baseUrl, apiKey: ACME_KEY, timeoutMs: 10_000 },
      selected: [{ check: free }],
      profile: 'emulator',
      receiver: { host: '127.0.0.1', port: 0 },
    });
    expect(report.results[0]?.outcome).toBe('passed');
    expect(moved).toBeGreaterThanOrEqual(3_600_000);
  }, 30_000);
});
