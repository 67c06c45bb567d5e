/**
 * Faults that name a tenant (D11, docs/control-plane.md#faults) on a real emulator with two
 * tenants: a `/*` fault of Acme's is met by Acme's requests alone, exactly `count` of them,
 * never by Globex's, a keyless one or one with a revoked Acme key. On the data dir, and on
 * PostgreSQL with two emulators sharing the database, where both count against one fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, type ApiResponse, type TestEmulator } from '../src/test-support/harness.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../src/test-support/postgres.js';

const postgres = postgresAvailability();
const FAULT_HEADER = 'x-svc-fault';

/** Whose requests the scenario sends: Acme's, Globex's, none's, and Acme's with a key it revoked. */
type Caller = 'acme' | 'globex' | 'keyless' | 'revoked';

/**
 * A `/*` fault of count 3 scoped to Acme, then GET /tenant from each caller, spread over
 * `emulators`: `rounds` calls of each other caller, then `rounds` of every caller at once.
 * Answers the answers, by caller.
 */
async function faultAcmeAndCall(emulators: readonly TestEmulator[], rounds: number): Promise<Record<Caller, ApiResponse[]>> {
  const [first] = emulators;
  const made = await first!.request('POST', '/api-keys', { body: { name: 'to revoke' } });
  expect(made.status).toBe(201);
  expect((await first!.request('DELETE', `/api-keys/${made.body.data.id}`)).status).toBe(200);
  const keys: Record<Caller, string | null> = { acme: ACME_KEY, globex: GLOBEX_KEY, keyless: null, revoked: made.body.data.key };

  const added = await first!.request('POST', '/_emulator/faults', { body: { path: '/*', status: 503, count: 3, tenant: ACME_TENANT_ID } });
  expect(added.status).toBe(201);
  expect(added.body.data).toMatchObject({ path: '/*', status: 503, count: 3, remaining: 3, tenant: ACME_TENANT_ID });
  for (const emulator of emulators) {
    expect((await emulator.request('GET', '/_emulator/faults')).body.data).toEqual([
      expect.objectContaining({ id: added.body.data.id, tenant: ACME_TENANT_ID }),
    ]);
  }

  // First the others alone: none of their calls counts against the fault. Then every caller at
  // once, Acme's call last in each round, so that the others' calls arrive first.
  const others: Caller[] = ['globex', 'keyless', 'revoked'];
  const callsOf = (callers: Caller[]) =>
    Array.from({ length: rounds }, (_, i) => callers.map((caller) => ({ caller, emulator: emulators[i % emulators.length]! }))).flat();
  const send = (calls: Array<{ caller: Caller; emulator: TestEmulator }>) =>
    Promise.all(calls.map(async ({ caller, emulator }) => ({ caller, answer: await emulator.request('GET', '/tenant', { key: keys[caller] }) })));
  const before = await send(callsOf(others));
  expect((await first!.request('GET', '/_emulator/faults')).body.data).toEqual([expect.objectContaining({ remaining: 3 })]);
  const answers = [...before, ...(await send(callsOf([...others, 'acme'])))];
  for (const { answer } of answers) if (answer.headers.get(FAULT_HEADER) !== null) expect(answer.headers.get(FAULT_HEADER)).toBe(added.body.data.id);
  const of = (caller: Caller): ApiResponse[] => answers.filter((entry) => entry.caller === caller).map((entry) => entry.answer);
  return { acme: of('acme'), globex: of('globex'), keyless: of('keyless'), revoked: of('revoked') };
}

function expectOnlyAcmeMet(byCaller: Record<Caller, ApiResponse[]>, rounds: number): void {
  const met = (answers: ApiResponse[]): ApiResponse[] => answers.filter((answer) => answer.headers.get(FAULT_HEADER) !== null);
  // Exactly `count` of Acme's calls answered 503 from the fault; the rest as usual.
  expect(met(byCaller.acme).map((answer) => [answer.status, answer.body.code])).toEqual(Array.from({ length: 3 }, () => [503, 'store_unavailable']));
  expect(byCaller.acme.filter((answer) => answer.status === 200)).toHaveLength(rounds - 3);
  // Nobody else met it, and each was answered as without a fault.
  expect(met(byCaller.globex)).toEqual([]);
  expect(byCaller.globex.map((answer) => answer.status)).toEqual(Array.from({ length: 2 * rounds }, () => 200));
  expect(met(byCaller.keyless)).toEqual([]);
  expect(byCaller.keyless.map((answer) => answer.body.code)).toEqual(Array.from({ length: 2 * rounds }, () => 'missing_api_key'));
  expect(met(byCaller.revoked)).toEqual([]);
  expect(byCaller.revoked.map((answer) => answer.body.code)).toEqual(Array.from({ length: 2 * rounds }, () => 'invalid_api_key'));
}

describe('faults scoped to a tenant, on the data dir', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator({ rateLimit: 'off' });
  });
  afterAll(() => svc.close());

  it("meets only the tenant's own requests, exactly `count` of them, then none", async () => {
    expectOnlyAcmeMet(await faultAcmeAndCall([svc], 8), 8);
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([]);
    expect((await svc.request('GET', '/tenant')).headers.get(FAULT_HEADER)).toBeNull();
  });

  it("keeps its order among every caller's faults: a scoped fault first is met by its tenant, an unscoped one after by the rest", async () => {
    const scoped = await svc.request('POST', '/_emulator/faults', { body: { path: '/apps', status: 500, count: 1, tenant: ACME_TENANT_ID } });
    const everyone = await svc.request('POST', '/_emulator/faults', { body: { path: '/apps', status: 503, count: 1 } });
    expect(everyone.body.data.tenant).toBeNull();
    const globex = await svc.request('GET', '/apps', { key: GLOBEX_KEY });
    expect([globex.status, globex.headers.get(FAULT_HEADER)]).toEqual([503, everyone.body.data.id]);
    const acme = await svc.request('GET', '/apps');
    expect([acme.status, acme.headers.get(FAULT_HEADER)]).toEqual([500, scoped.body.data.id]);
    expect((await svc.request('GET', '/apps')).status).toBe(200);
  });

  it.each([
    { tenant: 'ten_noSuchTenant000000001', status: 404, code: 'not_found', text: 'tenant ten_noSuchTenant000000001 not found' },
    { tenant: 'acme', status: 400, code: 'validation_error', text: 'tenant' },
  ])('refuses the tenant $tenant with $status in the error envelope, and adds nothing', async ({ tenant, status, code, text }) => {
    const answer = await svc.request('POST', '/_emulator/faults', { body: { path: '/*', status: 503, count: 1, tenant } });
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code });
    expect(JSON.stringify(answer.body)).toContain(text);
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([]);
  });
});

describe.skipIf(!postgres.available)('faults scoped to a tenant, on PostgreSQL with two emulators', () => {
  let server: TestPostgres;
  let one: TestEmulator;
  let two: TestEmulator;
  beforeAll(async () => {
    server = await startPostgres();
    const storeUrl = await server.database();
    one = await startTestEmulator({ storeUrl, rateLimit: 'off' });
    two = await startTestEmulator({ storeUrl, rateLimit: 'off' });
  }, 90_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await server?.stop();
  });

  it("meets only the tenant's own requests through either emulator, exactly `count` of them", async () => {
    expectOnlyAcmeMet(await faultAcmeAndCall([one, two], 10), 10);
    expect((await two.request('GET', '/_emulator/faults')).body.data).toEqual([]);
  }, 60_000);

  // A health probe waits for the store only briefly (middleware/store-sync.ts), yet a fault one
  // process stored is met by the next probe on any other, as by any other request.
  it("meets a fault set through one emulator at the other's next health probe, every time", async () => {
    for (let round = 0; round < 20; round += 1) {
      const added = await one.request('POST', '/_emulator/faults', { body: { path: '/healthz', status: 503, count: 1 } });
      expect(added.status).toBe(201);
      const probe = await two.request('GET', `${two.baseUrl}/healthz`, { key: null });
      expect([round, probe.status, probe.headers.get(FAULT_HEADER)]).toEqual([round, 503, added.body.data.id]);
    }
    expect((await one.request('GET', '/_emulator/faults')).body.data).toEqual([]);
  }, 30_000);

  it('refuses an unknown tenant with 404', async () => {
    const answer = await two.request('POST', '/_emulator/faults', { body: { path: '/*', count: 1, tenant: 'ten_noSuchTenant000000001' } });
    expect([answer.status, answer.body.code]).toEqual([404, 'not_found']);
  });
});

describe.skipIf(postgres.available)('faults scoped to a tenant, on PostgreSQL with two emulators', () => {
  it.skip(`skipped: ${postgres.reason}`, () => {});
});
