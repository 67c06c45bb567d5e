/**
 * The statuses only a failing or slow server gives (408, 500, 503), rehearsed on the emulator
 * through its faults (D11, docs/control-plane.md#faults): for every operation the document lists
 * them for, one fault per status; each call must answer it in the error envelope with its code
 * and `x-svc-fault`, and once the faults are spent the operation answers as usual. An operation
 * with an id in its path is faulted for every caller on a path of the run's own, which no one
 * else asks for, and called without a key; one without (GET /tenant), whose path every caller
 * uses, is faulted on every path of a tenant of the check's own, and called with that tenant's
 * key. Both run beside any check.
 */
import type { ApiResult, Client } from '../../client/index.js';
import { envelope } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import type { z } from '@hono/zod-openapi';
import type { Fault as FaultSchema } from '../../schemas/control.js';
import { concretePath, describe, runOwnedId, targetOperations, type DocumentOperation } from './document-operations.js';
import { eachOperation } from './statuses.js';
import { ownTenant } from './support.js';

/** The faults rehearsed, with the code the emulator's envelope carries for each (FAULT_CODES). */
const FAULTS = [
  { status: 408, code: 'request_timeout' },
  { status: 500, code: 'internal_error' },
  { status: 503, code: 'store_unavailable' },
] as const;

const FAULT_HEADER = 'x-svc-fault';

/** Requests one operation takes: a fault set and a call per status, and the call after them. */
const REQUESTS_PER_OPERATION = FAULTS.length * 2 + 1;

/** How the check calls an operation at a path: with no key, or with its own tenant's. */
type Send = (operation: DocumentOperation, path: string) => Promise<ApiResult<unknown>>;

/** A call without the key: a fault answers before the key is looked at, and a call no fault met changes nothing. */
const keyless =
  (ctx: CheckContext): Send =>
  (operation, path) =>
    ctx.client.request(operation.method, path, { apiKey: null });

/** The faults of `operation` at `path`, one after another, for every caller; then the operation answers as usual. */
async function rehearse(ctx: CheckContext, operation: DocumentOperation, path: string): Promise<void> {
  const send = keyless(ctx);
  for (const { status, code } of FAULTS.filter((fault) => operation.documented.has(fault.status))) {
    const set = await ctx.client.emulator.faults.add({ method: operation.method, path, status, count: 1 });
    expectStatus(set, [200, 201], `D11: POST /_emulator/faults for ${operation.method} ${path}`);
    const faulted = await send(operation, path);
    expectErrorCode(faulted, status, code, `D11: ${describe(operation)} answers the injected ${status} as ${code}`);
    expect(faulted.headers.get(FAULT_HEADER) !== null, `D11: an injected answer carries ${FAULT_HEADER}`, 'the header is missing', faulted);
  }
  const after = await expectUsual(send, operation, path);
  if (operation.keyed) expectStatus(after, 401, `D11: ${describe(operation)} without a key, once the fault is spent, is 401 as usual`);
}

/**
 * With no fault left for it, the operation answers as usual: without `x-svc-fault`, and with no
 * status of the faults (what it answers depends on the call: 401 without a key, a refusal of
 * the empty body or an answer with one).
 */
async function expectUsual(send: Send, operation: DocumentOperation, path: string): Promise<ApiResult<unknown>> {
  const after = await send(operation, path);
  expect(
    after.headers.get(FAULT_HEADER) === null && !FAULTS.some((fault) => fault.status === after.status),
    `D11: once its faults are spent, ${describe(operation)} answers as usual`,
    `answered ${after.status}${after.headers.get(FAULT_HEADER) === null ? '' : ` with ${FAULT_HEADER}`}`,
    after,
  );
  return after;
}

type Fault = z.output<typeof FaultSchema>;

/** The emulator's faults as it lists them now (none when it cannot say). */
async function listFaults(ctx: CheckContext): Promise<Fault[]> {
  const listed = await ctx.client.emulator.faults.list();
  return listed.ok ? listed.body.data : [];
}

/**
 * Spends whatever faults a failed rehearsal left, so that no later request meets one: `spender`
 * names, for a fault of the check's, how to call, and the operation and path that match it.
 */
async function spendLeftovers(
  ctx: CheckContext,
  spender: (fault: Fault) => { send: Send; operation: DocumentOperation; path: string } | undefined,
): Promise<void> {
  const faults = await listFaults(ctx);
  await Promise.all(
    faults.map(async (fault) => {
      const spend = spender(fault);
      for (let left = spend === undefined ? 0 : fault.remaining; left > 0; left -= 1) await spend!.send(spend!.operation, spend!.path);
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
      const operation = fault.tenant === null ? paths.get(`${fault.method ?? ''} ${fault.path}`) : undefined;
      return operation === undefined ? undefined : { send: keyless(ctx), operation, path: fault.path };
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
 * The operations with no id in their path, faulted in a tenant of the check's own: one fault
 * per status on every path (`/*`, of count one per operation) that names that tenant, so that
 * only the calls its key makes meet it, each operation called once under it with that key; once
 * the three are spent, none is left and every operation answers as usual. Other callers of the
 * emulator (the run's other checks, other people's tests) never meet these faults, so a fault
 * an operation did not answer is the target's failure.
 */
async function rehearseInOwnTenant(ctx: CheckContext, own: Client, tenant: string, operations: readonly DocumentOperation[]): Promise<void> {
  const send: Send = (operation, path) => own.request(operation.method, path);
  const set: string[] = [];
  try {
    for (const { status, code } of FAULTS) {
      const faulted = operations.filter((operation) => operation.documented.has(status));
      const added = await ctx.client.emulator.faults.add({ path: EVERY_PATH, status, count: faulted.length, tenant });
      expectStatus(added, [200, 201], `D11: POST /_emulator/faults {"path":"${EVERY_PATH}","status":${status},"tenant":"${tenant}"}`);
      const fault = added.ok ? added.body.data : undefined;
      if (fault !== undefined) set.push(fault.id);
      // An emulator that dropped `tenant` would fault every caller on every path.
      expect(fault?.tenant === tenant, `D11: the fault names the tenant it was given`, `its tenant is ${fault?.tenant}`, added);
      await eachOperation(faulted, async (operation) => {
        const answer = await send(operation, operation.path);
        expectErrorCode(answer, status, code, `D11: ${describe(operation)} answers the injected ${status} as ${code}`);
        expect(answer.headers.get(FAULT_HEADER) !== null, `D11: an injected answer carries ${FAULT_HEADER}`, 'the header is missing', answer);
      });
    }
    // Each fault of count N spent by N requests: none is left to meet the calls that follow.
    await eachOperation(operations, async (operation) => void (await expectUsual(send, operation, operation.path)));
  } catch (error) {
    const [first] = operations;
    await spendLeftovers(ctx, (fault) => (set.includes(fault.id) && first !== undefined ? { send, operation: first, path: first.path } : undefined));
    throw error;
  }
  ctx.note(`${operations.length} operations answered ${FAULTS.map((fault) => fault.status).join(', ')} where the document lists them, then as usual`);
}

/** A fault path every /v1 request matches. */
const EVERY_PATH = '/*';

export const fixedPathFaultChecks: Check[] = [
  {
    id: 'statuses.faults-fixed-paths',
    tags: ['statuses', 'emulator', 'faults'],
    description:
      "every operation with no id in its path (GET /tenant, POST /apps …) answers an injected 408, 500 and 503, once each, then as usual, faulted on every path of a tenant of the check's own",
    spec: 'part 7 (500), D6, D11',
    profile: 'emulator',
    creates: true,
    // A tenant made and removed, three rounds of faults and a round as usual, one after another: started early, it does not hold up a run's end.
    long: true,
    budget: 60 * 4 + 20,
    run: async (ctx) => {
      const operations = (await targetOperations(ctx)).filter((operation) => faulted(operation) && !withId(operation));
      // A tenant no one else calls: its faults on every path meet only this check's calls.
      const own = await ownTenant(ctx, 'faulted');
      const read = await own.tenant.get();
      const { data } = expectShape(read, envelope(Tenant), "part 4: GET /tenant with the check's own tenant's key");
      await rehearseInOwnTenant(ctx, own, data.id, operations);
    },
  },
];
