/**
 * The runner with checks of the test's own making (no target is asked anything): how many run
 * at once, results in catalogue order whatever order they finish in, --bail and Ctrl-C with
 * checks running at once, one shared value per key, and the stages of cleanup.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOptions } from './runner.js';
import type { Check, CheckContext, CleanupStage, Uses } from './types.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A check that takes `ms`, then does `then`; it records when it ran in `log`. */
function timed(id: string, ms: number, log: string[], then: (ctx: CheckContext) => void | Promise<void> = () => undefined, uses?: Omit<Uses, 'why'>): Check {
  return {
    id,
    tags: [id.split('.')[0]!],
    description: id,
    spec: 'part 1',
    profile: 'emulator',
    creates: false,
    ...(uses ? { uses: { ...uses, why: 'test' } } : {}),
    run: async (ctx) => {
      log.push(`start ${id}`);
      await sleep(ms);
      await then(ctx);
      log.push(`end ${id}`);
    },
  };
}

function run(checks: Check[], options: Partial<RunOptions> = {}) {
  const ended: number[] = [];
  const report = runSuite({
    // Nothing of the target is asked; the receiver is the suite's own, on loopback.
    target: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk_test_none', timeoutMs: 1_000 },
    selected: checks.map((check) => ({ check })),
    profile: 'emulator',
    receiver: { host: '127.0.0.1', port: 0 },
    listener: { onCheckEnd: (_result, index) => void ended.push(index) },
    ...options,
  });
  return { report, ended };
}

/** Most checks running at one time, from a start/end log. */
function mostAtOnce(log: string[]): number {
  let running = 0;
  let most = 0;
  for (const line of log) {
    running += line.startsWith('start ') ? 1 : line.startsWith('end ') ? -1 : 0;
    most = Math.max(most, running);
  }
  return most;
}

describe('the runner', () => {
  it('runs up to --concurrency checks at once and reports them in catalogue order, whatever order they finish in', async () => {
    const log: string[] = [];
    // Each takes less time than the one before: they finish in the reverse of catalogue order.
    const checks = Array.from({ length: 20 }, (_, i) => timed(`area${Math.floor(i / 5)}.check${i}`, 200 - i * 10, log));
    const { report, ended } = run(checks, { concurrency: 8 });
    const { results } = await report;
    expect(results.map((r) => r.id)).toEqual(checks.map((c) => c.id));
    expect(results.every((r) => r.outcome === 'passed')).toBe(true);
    expect(ended).toEqual(checks.map((_, index) => index));
    expect(mostAtOnce(log)).toBe(8);
    expect(log.indexOf('end area0.check7')).toBeLessThan(log.indexOf('end area0.check0'));
    expect((await report).concurrency).toBe(8);
  });

  it('at --concurrency 1 runs one check after another, in catalogue order', async () => {
    const log: string[] = [];
    const checks = [timed('a.one', 30, log), timed('a.two', 10, log), timed('b.three', 20, log, undefined, { lists: 'walks' })];
    await run(checks, { concurrency: 1 }).report;
    expect(log).toEqual(['start a.one', 'end a.one', 'start a.two', 'end a.two', 'start b.three', 'end b.three']);
  });

  it('never runs a check that moves the clock beside one that holds it, and runs those that hold it first', async () => {
    const log: string[] = [];
    // The free check ends only once c.moves has run, not after a time meant to outlast the
    // others: a loaded machine may start c.moves late. A runner that made c.moves wait for
    // b.free still fails, b.free then ending (after its 5 s) before c.moves ends.
    let movesRan!: () => void;
    const afterMoves = new Promise<void>((resolve) => (movesRan = resolve));
    const checks = [
      timed('a.holds1', 60, log, undefined, { clock: 'holds' }),
      timed('a.holds2', 80, log, undefined, { clock: 'holds' }),
      timed('b.free', 0, log, () => Promise.race([afterMoves, sleep(5_000)])),
      timed('c.moves', 40, log, () => movesRan(), { clock: 'moves' }),
      // After c.moves in the catalogue, yet it holds the clock: it runs before the move.
      timed('d.holds3', 40, log, undefined, { clock: 'holds' }),
    ];
    await run(checks, { concurrency: 8 }).report;
    const at = (line: string): number => log.indexOf(line);
    expect(at('start c.moves')).toBeGreaterThan(Math.max(at('end a.holds1'), at('end a.holds2'), at('end d.holds3')));
    // The free check runs beside all of them.
    expect(at('start b.free')).toBeLessThan(at('end a.holds1'));
    expect(at('end b.free')).toBeGreaterThan(at('end c.moves'));
  });

  it('shares one value per key among checks running at once: it is made once', async () => {
    let made = 0;
    const seen: number[] = [];
    const checks = Array.from({ length: 6 }, (_, i) =>
      timed(`a.share${i}`, 5, [], async (ctx) => {
        seen.push(
          await ctx.shared('thing', async () => {
            made += 1;
            await sleep(50);
            return 42;
          }),
        );
      }),
    );
    await run(checks, { concurrency: 6 }).report;
    expect(made).toBe(1);
    expect(seen).toEqual([42, 42, 42, 42, 42, 42]);
  });

  it('with --bail starts nothing after a failure, lets the checks running end, reports the rest not run, and cleans up all', async () => {
    const log: string[] = [];
    const removed: string[] = [];
    const defer = (ctx: CheckContext, what: string): void => ctx.defer({ description: what, run: async () => void removed.push(what) });
    const checks = [
      timed('a.fails', 20, log, (ctx) => {
        defer(ctx, 'made by a.fails');
        throw new Error('broken');
      }),
      timed('a.slow', 150, log, (ctx) => defer(ctx, 'made by a.slow')),
      timed('a.later', 10, log, (ctx) => defer(ctx, 'made by a.later')),
      timed('a.last', 10, log),
    ];
    const { results, cleanup } = await run(checks, { concurrency: 2, bail: true }).report;
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ['a.fails', 'failed'],
      ['a.slow', 'passed'],
      ['a.later', 'skipped'],
      ['a.last', 'skipped'],
    ]);
    expect(results[2]?.reason).toBe('not run: --bail stopped the run at the first failure');
    expect(log).not.toContain('start a.later');
    expect(removed.sort()).toEqual(['made by a.fails', 'made by a.slow']);
    expect(cleanup.every((c) => c.ok)).toBe(true);
  });

  it('on Ctrl-C stops every check running, reports them interrupted and the rest not run, and still cleans up', async () => {
    const controller = new AbortController();
    const removed: string[] = [];
    const checks = Array.from({ length: 6 }, (_, i) =>
      timed(`a.check${i}`, 5, [], async (ctx) => {
        ctx.defer({ description: `record ${i}`, run: async () => void removed.push(`record ${i}`) });
        if (i === 2) controller.abort();
        await sleep(i < 3 ? 10_000 : 0);
      }),
    );
    const started = Date.now();
    const report = await run(checks, { concurrency: 3, signal: controller.signal }).report;
    expect(report.interrupted).toBe(true);
    expect(report.results.map((r) => r.reason)).toEqual(['interrupted', 'interrupted', 'interrupted', ...Array(3).fill('not run: the run was interrupted')]);
    expect(removed.sort()).toEqual(['record 0', 'record 1', 'record 2']);
    // Each check running gets a grace of its own at once, not one after another.
    expect(Date.now() - started).toBeLessThan(6_000);
  }, 15_000);

  it('cleans up stage by stage: first, then records, then the webhooks and, beside them, the tenant one at a time, last registered first', async () => {
    const order: string[] = [];
    let tenantAtOnce = 0;
    const entry = (stage: CleanupStage | undefined, name: string) => ({
      description: name,
      ...(stage ? { stage } : {}),
      run: async () => {
        order.push(`start ${name}`);
        if (stage === 'tenant') tenantAtOnce += 1;
        if (tenantAtOnce > 1) order.push('two tenant removals at once');
        await sleep(stage === 'tenant' ? 20 : 5);
        if (stage === 'tenant') tenantAtOnce -= 1;
        order.push(`end ${name}`);
      },
    });
    const check = timed('a.makes', 1, [], (ctx) => {
      ctx.defer(entry('tenant', 'settings'));
      ctx.defer(entry(undefined, 'app'));
      ctx.defer(entry('first', 'delegated session'));
      ctx.defer(entry(undefined, 'key'));
      ctx.defer(entry('webhooks', 'webhook'));
      ctx.defer(entry('tenant', 'name'));
    });
    const { cleanup } = await run([check], { concurrency: 4 }).report;
    expect(cleanup.map((c) => c.description)).toEqual(['delegated session', 'key', 'app', 'webhook', 'name', 'settings']);
    expect(order.indexOf('end delegated session')).toBeLessThan(order.indexOf('start key'));
    // A key's revocation announces itself (api_key.revoked): the webhooks go only after it.
    expect(Math.max(order.indexOf('end key'), order.indexOf('end app'))).toBeLessThan(order.indexOf('start webhook'));
    // The tenant's settings go beside the webhooks, once every session is over.
    expect(Math.max(order.indexOf('end key'), order.indexOf('end app'))).toBeLessThan(order.indexOf('start name'));
    expect(order.indexOf('start name')).toBeLessThan(order.indexOf('end webhook'));
    expect(order.indexOf('end name')).toBeLessThan(order.indexOf('start settings'));
    expect(order).not.toContain('two tenant removals at once');
  });
});

describe("a check's requests", () => {
  /** A target that answers every request 200 after `ms`, and logs each with the moment it arrived and the key it carried. */
  const seen: Array<{ path: string; key: string; at: number }> = [];
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', key: String(request.headers['x-api-key']), at: performance.now() });
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}'), 20);
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)),
  );
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const check = (id: string, run: Check['run'], budget?: number): Check => ({
    id,
    tags: [id.split('.')[0]!],
    description: id,
    spec: 'part 1',
    profile: 'spec',
    creates: true,
    ...(budget === undefined ? {} : { budget }),
    run,
  });

  it('stop when the check fails: calls of it still going send nothing more, none after cleanup revoked its key', async () => {
    seen.length = 0;
    let revokedAt = Infinity;
    const flood = check('rate-limits.flood', async (ctx) => {
      ctx.defer({ description: 'revoke the key', run: async () => void (revokedAt = performance.now()) });
      const loop = async (n: number): Promise<void> => {
        for (let i = 0; ; i += 1) {
          await ctx.client.request('GET', `/tenant?loop=${n}`, { apiKey: 'sk_test_flood' });
          if (n === 0 && i === 3) throw new Error('one call of the flood broke');
        }
      };
      await Promise.all(Array.from({ length: 20 }, (_, n) => loop(n)));
    });
    const { report } = run([flood], { target: { baseUrl: await listening, apiKey: 'sk_test_run', timeoutMs: 2_000 } });
    const [result] = (await report).results;
    expect(result?.outcome).toBe('failed');
    expect(result?.reason).toContain('one call of the flood broke');
    const sentByFlood = seen.filter((request) => request.key === 'sk_test_flood');
    expect(result?.requests).toBe(sentByFlood.length);
    // Four rounds of twenty, and the few that were on their way when the check broke.
    expect(sentByFlood.length).toBeLessThan(20 * 6);
    await sleep(200);
    expect(seen.filter((request) => request.key === 'sk_test_flood')).toHaveLength(sentByFlood.length);
    expect(seen.filter((request) => request.key === 'sk_test_flood' && request.at > revokedAt)).toEqual([]);
  });

  it('are counted against a budget: past it the check is stopped and fails with "request budget N hit"', async () => {
    seen.length = 0;
    const polls = check(
      'webhooks.polls',
      async (ctx) => {
        // A check that would poll for ever: the budget ends it.
        for (;;) await ctx.client.request('GET', '/tenant');
      },
      12,
    );
    const shared = check(
      'webhooks.shares',
      async (ctx) => {
        await ctx.shared('hook', async () => {
          for (let i = 0; i < 5; i += 1) await ctx.client.request('GET', '/webhooks');
        });
        for (let i = 0; i < 3; i += 1) await ctx.client.request('GET', '/tenant');
      },
      4,
    );
    const { report } = run([polls, shared], { target: { baseUrl: await listening, apiKey: 'sk_test_run', timeoutMs: 2_000 } });
    const [polled, sharing] = (await report).results;
    expect(polled?.outcome).toBe('failed');
    expect(polled?.reason).toBe('request budget 12 hit');
    expect(polled?.requests).toBe(12);
    // What the checks share is made outside any of them: the five calls count against no budget.
    expect(sharing?.outcome).toBe('passed');
    expect(sharing?.requests).toBe(3);
    expect(seen.filter((request) => request.path === '/v1/tenant')).toHaveLength(15);
  });
});
