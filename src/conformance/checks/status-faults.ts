/**
 * The statuses only a failing or slow server gives (408, 500, 503), rehearsed on the emulator
 * through its faults (D11, docs/control-plane.md): for every operation the document lists them
 * for, one fault of count 1 per status; each call must answer it in the error envelope with
 * its code and `x-svc-fault`, and once the faults are spent the operation answers as usual.
 * A fault matches its method and path for every caller, so an operation with an id in its path
 * is faulted on a path of the run's own and runs beside any check; one without (GET /tenant)
 * is faulted on the path every caller uses, in a check that runs alone.
 */
import type { ApiResult } from '../../client/index.js';
import { CheckSkip, expect, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import type { z } from '@hono/zod-openapi';
import type { Fault as FaultSchema } from '../../schemas/control.js';
import { concretePath, describe, runOwnedId, targetOperations, type DocumentOperation } from './document-operations.js';
import { eachOperation } from './statuses.js';

/** The faults rehearsed, with the code the emulator's envelope carries for each (FAULT_CODES). */
const FAULTS = [
  { status: 408, code: 'request_timeout' },
  { status: 500, code: 'internal_error' },
  { status: 503, code: 'store_unavailable' },
] as const;

const FAULT_HEADER = 'x-svc-fault';

/** Requests one operation takes: a fault set and a call per status, and the call after them. */
const REQUESTS_PER_OPERATION = FAULTS.length * 2 + 1;

/** A call without the key: a fault answers before the key is looked at, and a call no fault met changes nothing. */
function call(ctx: CheckContext, operation: DocumentOperation, path: string): Promise<ApiResult<unknown>> {
  return ctx.client.request(operation.method, path, { apiKey: null });
}

/** The faults of `operation` at `path`, one after another; then the operation answers as usual. */
async function rehearse(ctx: CheckContext, operation: DocumentOperation, path: string): Promise<void> {
  for (const { status, code } of FAULTS.filter((fault) => operation.documented.has(fault.status))) {
    const set = await ctx.client.emulator.request('POST', '/faults', { body: { method: operation.method, path, status, count: 1 } });
    expectStatus(set, [200, 201], `D11: POST /_emulator/faults for ${operation.method} ${path}`);
    const faulted = await call(ctx, operation, path);
    expectErrorCode(faulted, status, code, `D11: ${describe(operation)} answers the injected ${status} as ${code}`);
    expect(faulted.headers.get(FAULT_HEADER) !== null, `D11: an injected answer carries ${FAULT_HEADER}`, 'the header is missing', faulted);
  }
  await expectUsual(ctx, operation, path);
}

/** With no fault left for it, the operation answers as it does without a key. */
async function expectUsual(ctx: CheckContext, operation: DocumentOperation, path: string): Promise<void> {
  const after = await call(ctx, operation, path);
  expect(
    after.headers.get(FAULT_HEADER) === null && !FAULTS.some((fault) => fault.status === after.status),
    `D11: once its faults of count 1 are spent, ${describe(operation)} answers as usual`,
    `answered ${after.status}${after.headers.get(FAULT_HEADER) === null ? '' : ` with ${FAULT_HEADER}`}`,
    after,
  );
  if (operation.keyed) expectStatus(after, 401, `D11: ${describe(operation)} without a key, once the fault is spent, is 401 as usual`);
}

type Fault = z.output<typeof FaultSchema>;

/** The emulator's faults as it lists them now (none when it cannot say). */
async function listFaults(ctx: CheckContext): Promise<Fault[]> {
  const listed = await ctx.client.emulator.faults.list();
  return listed.ok ? listed.body.data : [];
}

/**
 * Spends whatever faults a failed rehearsal left, so that no later request meets one: `spender`
 * names, for a fault of the check's, the operation and path that match it.
 */
async function spendLeftovers(ctx: CheckContext, spender: (fault: Fault) => { operation: DocumentOperation; path: string } | undefined): Promise<void> {
  const faults = await listFaults(ctx);
  await Promise.all(
    faults.map(async (fault) => {
      const spend = spender(fault);
      for (let left = spend === undefined ? 0 : fault.remaining; left > 0; left -= 1) await call(ctx, spend!.operation, spend!.path);
    }),
  );
}

/** Rehearses the faults of `operations`, each at the path `pathOf` gives it, and spends any left behind. */
async function rehearseAll(ctx: CheckContext, operations: readonly DocumentOperation[], pathOf: (operation: DocumentOperation) => string): Promise<void> {
  const paths = new Map(operations.map((operation) => [`${operation.method} ${pathOf(operation)}`, operation]));
  try {
    await eachOperation(operations, (operation) => rehearse(ctx, operation, pathOf(operation)));
  } catch (error) {
    await spendLeftovers(ctx, (fault) => {
      const operation = paths.get(`${fault.method ?? ''} ${fault.path}`);
      return operation === undefined ? undefined : { operation, path: fault.path };
    });
    throw error;
  }
  ctx.note(`${operations.length} operations answered ${FAULTS.map((fault) => fault.status).join(', ')} where the document lists them, then as usual`);
}

const faulted = (operation: DocumentOperation): boolean => FAULTS.some((fault) => operation.documented.has(fault.status));

/** Operations whose every path is the run's own once its ids are. */
const withId = (operation: DocumentOperation): boolean => operation.pathParameters.length > 0;

export const faultChecks: Check[] = [
  {
    id: 'statuses.faults',
    tags: ['statuses', 'emulator', 'faults'],
    description: 'every operation with an id in its path answers an injected 408, 500 and 503 in the error envelope, once each, then as usual',
    spec: 'part 7 (500), D6, D11',
    profile: 'emulator',
    creates: true,
    budget: 60 * REQUESTS_PER_OPERATION + 60,
    // Runs beside any check: its faults are on paths of the run's own ids, which no other check asks for.
    run: async (ctx) => {
      const operations = (await targetOperations(ctx)).filter((operation) => faulted(operation) && withId(operation));
      await rehearseAll(ctx, operations, (operation) => concretePath(operation, runOwnedId(ctx, 'faulted')));
    },
  },
];

/**
 * The operations with no id in their path, faulted while nothing else of the run is sent: one
 * fault per status on every path (`/*`, of count one per operation), each operation called once
 * under it; once the three are spent, none is left and every operation answers as usual. Fewer
 * requests than a fault per operation, in a check every other one waits for.
 */
async function rehearseEverywhere(ctx: CheckContext, operations: readonly DocumentOperation[]): Promise<void> {
  try {
    for (const { status, code } of FAULTS) {
      const faulted = operations.filter((operation) => operation.documented.has(status));
      const set = await ctx.client.emulator.request('POST', '/faults', { body: { path: EVERY_PATH, status, count: faulted.length } });
      expectStatus(set, [200, 201], `D11: POST /_emulator/faults {"path":"${EVERY_PATH}","status":${status}}`);
      const answers = await Promise.all(faulted.map(async (operation) => ({ operation, answer: await call(ctx, operation, operation.path) })));
      const met = answers.filter(({ answer }) => answer.headers.get(FAULT_HEADER) !== null).length;
      if (met < faulted.length) await skipIfOthersMet(ctx, (set.body as { data?: { id?: string } } | undefined)?.data?.id, faulted.length - met);
      await eachOperation(faulted, (operation) =>
        Promise.resolve().then(() => {
          const { answer } = answers.find((entry) => entry.operation === operation)!;
          expectErrorCode(answer, status, code, `D11: ${describe(operation)} answers the injected ${status} as ${code}`);
          expect(answer.headers.get(FAULT_HEADER) !== null, `D11: an injected answer carries ${FAULT_HEADER}`, 'the header is missing', answer);
        }),
      );
    }
    // Each fault of count N spent by N requests: none is left to meet the calls that follow.
    await eachOperation(operations, (operation) => expectUsual(ctx, operation, operation.path));
  } catch (error) {
    const [first] = operations;
    await spendLeftovers(ctx, (fault) => (fault.path === EVERY_PATH && first !== undefined ? { operation: first, path: first.path } : undefined));
    throw error;
  }
  ctx.note(`${operations.length} operations answered ${FAULTS.map((fault) => fault.status).join(', ')} where the document lists them, then as usual`);
}

/**
 * Some of the run's calls missed a fault of count N that was set for exactly N of them: when the
 * fault is spent all the same, another caller of the emulator met the rest (a shared emulator,
 * traffic beside the run), which says nothing of the target, so the check is skipped, naming
 * it; when the fault is still there, the target did not answer it, and the check fails.
 */
async function skipIfOthersMet(ctx: CheckContext, faultId: string | undefined, missed: number): Promise<void> {
  const faults = await listFaults(ctx);
  const left = faults.find((fault) => fault.id === faultId)?.remaining ?? 0;
  if (left === 0) {
    throw new CheckSkip(
      `another caller of this emulator met ${missed} of the run's injected faults on every path (it was not alone on the emulator): run it where nothing else calls, or --skip statuses.faults-fixed-paths`,
    );
  }
}

/** A fault path every /v1 request matches. */
const EVERY_PATH = '/*';

export const fixedPathFaultChecks: Check[] = [
  {
    id: 'statuses.faults-fixed-paths',
    tags: ['statuses', 'emulator', 'faults'],
    description: 'every operation with no id in its path (GET /tenant, POST /apps …) answers an injected 408, 500 and 503, once each, then as usual',
    spec: 'part 7 (500), D6, D11',
    profile: 'emulator',
    creates: true,
    budget: 60 * 4 + 20,
    uses: { alone: true, why: 'its faults are on paths every check calls (GET /tenant): another check running would meet them' },
    run: async (ctx) => {
      const operations = (await targetOperations(ctx)).filter((operation) => faulted(operation) && !withId(operation));
      await rehearseEverywhere(ctx, operations);
    },
  },
];
