/**
 * Hostile input against every endpoint (DESIGN D6): fast-check draws requests for each route
 * the app registers (/v1 — checked against the OpenAPI document —, the control plane, the
 * dashboard and the provider pages) with random and malformed bodies, query strings, path ids
 * and headers. Whatever arrives: never a 5xx; every 4xx in the error envelope; a rejected
 * request leaves the store as it was; no unknown key (`__proto__` included) reaches a stored
 * record or Object.prototype. `npm test` runs a fixed seed; `npm run fuzz` runs many more
 * (FUZZ_RUNS, FUZZ_SEED to repeat a run).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { COLLECTION_NAMES, type CollectionName } from '../src/store/records.js';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, GLOBEX_TENANT_ID, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import {
  hostileRequest,
  POLLUTING_KEYS,
  sendRaw,
  UNKNOWN_FIELD,
  type HostileContext,
  type HostileRequest,
  type RawResponse,
  type Route,
} from '../src/test-support/hostile.js';

// `vitest --mode fuzz` (npm run fuzz) sets MODE.
const FUZZING = process.env['MODE'] === 'fuzz';
const RUNS = Number(process.env['FUZZ_RUNS'] ?? (FUZZING ? 5_000 : 500));
const SEED = process.env['FUZZ_SEED'] !== undefined ? Number(process.env['FUZZ_SEED']) : FUZZING ? Date.now() : 20_261_121;
/** Control-plane fields (the control plane is not in the OpenAPI document). */
const CONTROL_FIELDS = ['by', 'now', 'speed', 'method', 'path', 'status', 'delay', 'count', 'type', 'tenant', 'tenantId', 'tenants', 'data', 'plan'];
const BANNED_KEYS = new Set<string>([...POLLUTING_KEYS, UNKNOWN_FIELD]);

type Snapshot = Map<CollectionName, readonly object[]>;

function snapshot(svc: TestEmulator): Snapshot {
  return new Map(COLLECTION_NAMES.map((name) => [name, [...svc.emulator.rt.store.all(name)] as object[]]));
}

/** Records are replaced, never changed in place, so identity tells what a request wrote. */
function changedRecords(before: Snapshot, after: Snapshot): Array<{ collection: CollectionName; record: object }> {
  const changed: Array<{ collection: CollectionName; record: object }> = [];
  for (const [name, records] of after) {
    const old = new Set(before.get(name));
    for (const record of records) if (!old.has(record)) changed.push({ collection: name, record });
  }
  return changed;
}

/** Records whose id is gone after the request. */
function removedRecords(before: Snapshot, after: Snapshot): string[] {
  const removed: string[] = [];
  for (const [name, records] of before) {
    const now = new Set((after.get(name) as Array<{ id: string }>).map((record) => record.id));
    for (const { id } of records as Array<{ id: string }>) if (!now.has(id)) removed.push(`${name} ${id}`);
  }
  return removed;
}

/** Paths to own keys no schema declares, anywhere in a record. */
function bannedKeys(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    if (BANNED_KEYS.has(key)) found.push(`${path}.${key}`);
    found.push(...bannedKeys((value as Record<string, unknown>)[key], `${path}.${key}`));
  }
  return found;
}

/** `/v1/apps/:id` → `/v1/apps/{id}`, the OpenAPI document's spelling. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

describe('hostile input against every endpoint', () => {
  let svc: TestEmulator;
  let routes: Route[];
  let openapi: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
  const context: HostileContext & { refresh(): Promise<void> } = {
    ids: [],
    apiKeys: [ACME_KEY, ACME_KEY, ACME_KEY, GLOBEX_KEY],
    bearer: [],
    fieldsOf(route) {
      if (!route.path.startsWith('/v1')) return CONTROL_FIELDS;
      const operation = openapi.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      let schema = operation?.requestBody?.content?.['application/json']?.schema;
      if (schema?.$ref) schema = openapi.components.schemas[String(schema.$ref).split('/').pop()!];
      return Object.keys(schema?.properties ?? {});
    },
    /** Ids of both tenants' records and fresh guest sessions, after a reset emptied them. */
    async refresh() {
      const { store } = svc.emulator.rt;
      const ids: string[] = [];
      for (const tenant of [ACME_TENANT_ID, GLOBEX_TENANT_ID]) {
        for (const name of ['apps', 'users', 'webhooks', 'guests', 'deliveries', 'wallets', 'checkoutSessions', 'portalSessions'] as const) {
          ids.push(
            ...store
              .ofTenant(name, tenant)
              .slice(0, 3)
              .map((record) => record.id),
          );
        }
        ids.push(tenant);
      }
      context.ids.splice(0, context.ids.length, ...ids);
      context.bearer.splice(0, context.bearer.length);
      for (const key of [ACME_KEY, ACME_KEY, GLOBEX_KEY]) {
        const guest = await svc.request('POST', '/guests', { key, body: {} });
        context.bearer.push(guest.body.data.session.token as string);
      }
    },
  };

  beforeAll(async () => {
    svc = await startTestEmulator({ rateLimit: 'off' });
    openapi = (await svc.request('GET', '/v1/openapi.json', { key: null })).body;
    const seen = new Set<string>();
    routes = createApp(svc.emulator.rt)
      .routes.filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .filter((route) => !seen.has(`${route.method} ${route.path}`) && seen.add(`${route.method} ${route.path}`))
      .map(({ method, path }) => ({ method, path }));
    for (const key of [ACME_KEY, GLOBEX_KEY]) {
      await svc.request('POST', '/webhooks', { key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
      await svc.request('POST', '/billing/checkout', {
        key,
        body: { plan: 'enterprise', successUrl: 'http://127.0.0.1:9/ok', cancelUrl: 'http://127.0.0.1:9/no' },
      });
    }
    await context.refresh();
  }, 60_000);
  afterAll(() => svc.close());

  it('enumerates every operation of the OpenAPI document and the control plane', () => {
    const listed = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`));
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const method of Object.keys(operations)) expect(listed.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
    }
    expect(routes.filter((route) => route.path.startsWith('/_emulator/') && !route.path.startsWith('/_emulator/ui')).length).toBeGreaterThanOrEqual(14);
  });

  it(
    `never answers 5xx, keeps 4xx in the envelope, and lets nothing rejected or unknown in (${RUNS} runs, seed ${SEED})`,
    async () => {
      const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
      const arbitrary = fc.constantFrom(...routes).chain((route) => hostileRequest(route, context).map((request) => ({ route, request })));

      const statuses = new Map<number, number>();
      const check = async ({ route, request }: { route: Route; request: HostileRequest }): Promise<void> => {
        const before = snapshot(svc);
        const sent = request.body === null ? '' : ` ${request.body.subarray(0, 300).toString('utf8')}`;
        const res: RawResponse = await sendRaw(svc.origin, request).catch((error: unknown) => {
          throw new Error(`${request.method} ${request.target.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)}${sent}: ${String(error)}`);
        });
        const where = `${request.method} ${request.target.slice(0, 200)}${sent} → ${res.status} ${res.text.slice(0, 300)}`;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, where).toBeLessThan(500);
        expect(res.status, where).toBeGreaterThanOrEqual(200);
        const after = snapshot(svc);
        // The dashboard and the provider pages are for people: their errors are HTML pages.
        const htmlSurface = /^\/(_emulator\/ui|_provider)(\/|$)/.test(route.path);
        if (res.status >= 400 && request.method !== 'HEAD' && !(htmlSurface && String(res.headers['content-type']).startsWith('text/html'))) {
          expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
          const body = JSON.parse(res.text) as Record<string, unknown>;
          expect(Object.keys(body).sort(), where).toEqual(['code', 'details', 'error']);
          expect(body, where).toEqual({ error: expect.any(String), code: expect.stringMatching(/^[a-z_]+$/), details: expect.any(Array) });
          const deliveriesBefore = new Set((before.get('deliveries') as Array<{ id: string }>).map((d) => d.id));
          const changed = changedRecords(before, after).filter(
            ({ collection, record }) =>
              // API-call counts and the dispatcher's attempts on earlier deliveries go on beside the request.
              collection !== 'usage' && !(collection === 'deliveries' && deliveriesBefore.has((record as { id: string }).id)),
          );
          // D5: wrong MFA codes count toward the lockout; that is the rule, not a leak.
          const allowed = changed.filter(({ collection }) => collection !== 'mfa');
          expect(
            allowed.map(({ collection, record }) => `${collection} ${JSON.stringify(record).slice(0, 200)}`),
            where,
          ).toEqual([]);
          expect(removedRecords(before, after), where).toEqual([]);
        }
        for (const { collection, record } of changedRecords(before, after)) expect(bannedKeys(record), `${where}\n${collection}`).toEqual([]);
        expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
        expect(({} as Record<string, unknown>)['polluted'], where).toBeUndefined();

        // Undo what a successful control-plane call changed for every later request.
        if (res.status < 400 && /faults/.test(route.path)) await svc.request('DELETE', '/_emulator/faults');
        if (res.status < 400 && /clock/.test(route.path)) await svc.request('POST', '/_emulator/clock', { body: { speed: 1, now: new Date().toISOString() } });
        if (res.status < 400 && /reset|seed/.test(route.path)) await context.refresh();
      };

      await fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: RUNS, seed: SEED, endOnFailure: !FUZZING });
      // The requests must get past authentication and validation often enough to reach the rules.
      const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
      const succeeded = [...statuses].filter(([status]) => status < 400).reduce((sum, [, count]) => sum + count, 0);
      console.log(`hostile input: ${answered} requests, by status ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
      expect(succeeded / answered).toBeGreaterThan(0.05);
    },
    FUZZING ? 0 : 60_000,
  );
  /** Valid bodies, so the extra keys reach the services: `{}` marks where extra keys are added too. */
  const VALID: Array<[string, string, (n: number) => Record<string, unknown>]> = [
    ['POST', '/v1/apps', (n) => ({ name: `Pollution ${n}`, description: 'x', allowedOrigins: ['http://localhost:3000'] })],
    ['POST', '/v1/users', (n) => ({ email: `pollution.${n}@example.com`, name: 'P' })],
    ['POST', '/v1/api-keys', (n) => ({ name: `pollution ${n}` })],
    ['POST', '/v1/webhooks', () => ({ url: 'http://127.0.0.1:9/hook', events: ['mfa.enabled'], description: 'p' })],
    ['PATCH', '/v1/tenant', () => ({ settings: { sessionTtl: '24h', webauthn: { rpName: 'Acme' }, telegram: { botUsername: 'acme_bot' } } })],
    ['POST', '/v1/guests', () => ({})],
    ['POST', '/v1/billing/checkout', () => ({ plan: 'enterprise', successUrl: 'http://127.0.0.1:9/ok', cancelUrl: 'http://127.0.0.1:9/no' })],
    // A fault on a route these bodies never call (a path no route has is refused).
    ['POST', '/_emulator/faults', () => ({ path: '/mpc/recover', status: 409, count: 1 })],
    ['POST', '/_emulator/trigger', () => ({ type: 'mfa.enabled' })],
  ];

  it(
    'takes valid bodies that carry __proto__, constructor, prototype and unknown keys, and stores none of them',
    async () => {
      const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
      let n = 0;
      const extra = fc.array(
        fc.tuple(fc.constantFrom(...POLLUTING_KEYS, UNKNOWN_FIELD), fc.constantFrom<unknown>({ polluted: 'yes' }, { [UNKNOWN_FIELD]: 1 }, 'x', [1], null)),
        { minLength: 1, maxLength: 4 },
      );
      /** Writes an object with `extra` keys added at every level, as raw JSON text. */
      const withExtras = (value: unknown, extras: Array<[string, unknown]>): string => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return JSON.stringify(value);
        const entries = [
          ...Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${withExtras(v, extras)}`),
          ...extras.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`),
        ];
        return `{${entries.join(',')}}`;
      };
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...VALID), extra, async ([method, path, body], extras) => {
          const before = snapshot(svc);
          const text = withExtras(body(++n), extras);
          const res = await sendRaw(svc.origin, {
            method,
            target: path,
            headers: { 'x-api-key': ACME_KEY, 'content-type': 'application/json' },
            body: Buffer.from(text),
          });
          const where = `${method} ${path} ${text} → ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(300);
          expect(bannedKeys(JSON.parse(res.text)), where).toEqual([]);
          const changed = changedRecords(before, snapshot(svc));
          // Faults live in memory, not in the store; everything else here writes a record.
          if (path !== '/_emulator/faults') expect(changed.length, where).toBeGreaterThan(0);
          for (const { collection, record } of changed) expect(bannedKeys(record), `${where}\n${collection}`).toEqual([]);
          expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
          expect(({} as Record<string, unknown>)['polluted'], where).toBeUndefined();
          if (path === '/_emulator/faults') await svc.request('DELETE', '/_emulator/faults');
        }),
        { numRuns: Math.max(60, Math.round(RUNS / 5)), seed: SEED, endOnFailure: !FUZZING },
      );
    },
    FUZZING ? 0 : 30_000,
  );
});
