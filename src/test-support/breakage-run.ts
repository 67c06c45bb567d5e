/**
 * What the breakage tests of the conformance suite share: an emulator behind a proxy that
 * breaks one behaviour (broken-server.ts), the run of the named checks through it, and small
 * editors of the proxied answers. Each case names the check that must fail and the rule its
 * reason must carry.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATALOGUE } from '../conformance/catalogue.js';
import { preflight } from '../conformance/preflight.js';
import { runSuite, type RunReport } from '../conformance/runner.js';
import { selectChecks } from '../conformance/select.js';
import { startBrokenServer, type Breakage, type ProxiedRequest, type ProxiedResponse } from './broken-server.js';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, type TestEmulator } from './harness.js';

export interface BreakageCase {
  name: string;
  breakage: Breakage;
  /** The check that must fail. */
  failing: string;
  /** Words of the broken rule that the failure's reason must carry. */
  rule: string;
  /**
   * Acme's plan for the case, when not the one it has: free's 20 requests a second let the
   * rate-limit check outrun the refill on a loaded machine, where pro's 200 may not.
   */
  plan?: 'free';
}

/** Starts an emulator before the tests of the file and answers a runner of checks through a broken proxy in front of it. */
export function breakageTarget(): {
  run(breakage: Breakage, only: string[]): Promise<RunReport>;
  /** Runs the case's check alone through its breakage, and holds it failed for the case's rule. */
  expectCaught(breakageCase: BreakageCase): Promise<void>;
  svc(): TestEmulator;
} {
  let svc: TestEmulator | undefined;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(async () => svc?.close());
  const started = (): TestEmulator => {
    if (svc === undefined) throw new Error('the breakage target starts in beforeAll');
    return svc;
  };
  const run = async (breakage: Breakage, only: string[]): Promise<RunReport> => {
    const broken = await startBrokenServer(started().emulator.rt, breakage);
    try {
      const target = { baseUrl: broken.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 30_000 };
      const { profile } = await preflight(target, 'auto');
      const selected = selectChecks(CATALOGUE, { profile, includeSlow: false, readOnly: false, only, skip: [], hasSecondKey: true });
      return await runSuite({ target, selected, profile, receiver: { host: '127.0.0.1', port: 0 } });
    } finally {
      await broken.close();
    }
  };
  return {
    svc: started,
    run,
    async expectCaught({ breakage, failing, rule, plan }) {
      const { store } = started().emulator.rt;
      const planBefore = store.get('tenants', ACME_TENANT_ID)!.plan;
      const setPlan = (to: typeof planBefore) => store.write(() => store.update('tenants', ACME_TENANT_ID, { plan: to }));
      if (plan !== undefined) await setPlan(plan);
      const report = await run(breakage, [failing]).finally(() => (plan === undefined ? undefined : setPlan(planBefore)));
      const result = report.results.find((r) => r.id === failing);
      expect(result?.outcome, result?.reason).toBe('failed');
      expect(result?.reason).toContain(rule);
    },
  };
}

export type Body = Record<string, any>;

export const json = (response: ProxiedResponse, edit: (body: Body) => void): ProxiedResponse => {
  const body = JSON.parse(response.body) as Body;
  edit(body);
  return { ...response, body: JSON.stringify(body) };
};

export const is = (request: ProxiedRequest, method: string, path: RegExp): boolean => request.method === method && path.test(request.path);

/** A 2xx answer to `method path`, edited. */
export const onOk =
  (method: string, path: RegExp, edit: (body: Body, request: ProxiedRequest) => void) =>
  (q: ProxiedRequest, r: ProxiedResponse): ProxiedResponse | undefined =>
    is(q, method, path) && r.status < 300 ? json(r, (b) => edit(b, q)) : undefined;

/** An answer of `status` to `method path`, edited. */
export const onStatus =
  (status: number, method: string, path: RegExp, edit: (body: Body) => void) =>
  (q: ProxiedRequest, r: ProxiedResponse): ProxiedResponse | undefined =>
    is(q, method, path) && r.status === status ? json(r, edit) : undefined;

/**
 * One test per case: its check run alone through its breakage and held failed for its rule.
 * `fresh` runs before each (a file's memory of what its breakages saw).
 */
export function itFailsOnEach(target: ReturnType<typeof breakageTarget>, cases: BreakageCase[], fresh: () => void = () => {}): void {
  it.each(cases)(
    'fails when $name',
    async (breakageCase) => {
      fresh();
      await target.expectCaught(breakageCase);
    },
    30_000,
  );
}
