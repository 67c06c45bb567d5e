/**
 * The isolation matrix (DESIGN D3): for every endpoint that names a record — in its path or in
 * its body — each seeded tenant asks for the other's record, with its own key and its own user
 * and delegated sessions. Every answer is 404 not_found (401 where a delegated token names
 * another session), the same as for an id that never existed, and the other tenant's record is
 * left as it was. The list of endpoints is checked
 * against the OpenAPI document, so a new endpoint with an id fails here until it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionName } from '../src/store/records.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { claimWallet, signIn } from '../src/test-support/signed-in.js';

type Tenant = 'acme' | 'globex';
interface Owned {
  key: string;
  session: string;
  delegatedToken: string;
  shares: string[];
  ids: Record<'app' | 'user' | 'apiKey' | 'webhook' | 'guest' | 'wallet' | 'delegated', string>;
}
type Slot = keyof Owned['ids'];
/** Who authenticates the call: the tenant's key only, its user's session, or its delegated session. */
type Auth = 'key' | 'session' | 'delegated';

/** [method, OpenAPI path, which record, where the victim's record lives, auth, body (ids of the victim filled in)] */
const MATRIX: Array<[string, string, Slot, CollectionName, Auth, ((victim: Owned, asker: Owned) => unknown)?]> = [
  ['GET', '/apps/{id}', 'app', 'apps', 'key'],
  ['PATCH', '/apps/{id}', 'app', 'apps', 'key', () => ({ name: 'hijacked' })],
  ['DELETE', '/apps/{id}', 'app', 'apps', 'key'],
  ['GET', '/users/{id}', 'user', 'users', 'key'],
  ['DELETE', '/api-keys/{id}', 'apiKey', 'apiKeys', 'key'],
  ['PATCH', '/webhooks/{id}', 'webhook', 'webhooks', 'key', () => ({ url: 'http://127.0.0.1:9/stolen', rotateSecret: true })],
  ['DELETE', '/webhooks/{id}', 'webhook', 'webhooks', 'key'],
  ['POST', '/webhooks/{id}/test', 'webhook', 'webhooks', 'key', () => ({})],
  ['GET', '/webhooks/{id}/deliveries', 'webhook', 'webhooks', 'key'],
  ['GET', '/guests/{id}', 'guest', 'guests', 'key'],
  ['DELETE', '/guests/{id}', 'guest', 'guests', 'key'],
  ['POST', '/guests/{id}/convert', 'guest', 'guests', 'key', () => ({ email: 'hijack@example.com' })],
  ['GET', '/mpc/shares/{walletId}', 'wallet', 'wallets', 'session'],
  ['DELETE', '/mpc/shares/{walletId}', 'wallet', 'wallets', 'session'],
  ['POST', '/mpc/shares', 'wallet', 'wallets', 'session', (victim, asker) => ({ walletId: victim.ids.wallet, shareIndex: 2, share: asker.shares[0] })],
  ['POST', '/mpc/recover', 'wallet', 'wallets', 'session', (victim, asker) => ({ walletId: victim.ids.wallet, shares: asker.shares })],
  [
    'POST',
    '/delegated-sessions',
    'wallet',
    'wallets',
    'session',
    (victim) => ({ walletId: victim.ids.wallet, permissions: { templates: ['*'], choices: ['*'] }, expiresIn: '1h' }),
  ],
  ['GET', '/delegated-sessions/{id}', 'delegated', 'delegatedSessions', 'session'],
  ['DELETE', '/delegated-sessions/{id}', 'delegated', 'delegatedSessions', 'session'],
  [
    'POST',
    '/delegated-sessions/{id}/execute',
    'delegated',
    'delegatedSessions',
    'delegated',
    () => ({ command: { create: { templateId: '#pkg:Main:Asset', payload: {} } } }),
  ],
  ['POST', '/delegated-sessions/{id}/query', 'delegated', 'delegatedSessions', 'delegated', () => ({})],
];

describe('tenant isolation across every endpoint that names a record', () => {
  let svc: TestEmulator;
  const owned = {} as Record<Tenant, Owned>;

  beforeAll(async () => {
    svc = await startTestEmulator();
    for (const [tenant, key] of [
      ['acme', ACME_KEY],
      ['globex', GLOBEX_KEY],
    ] as const) {
      const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await svc.request('POST', path, { key, body, headers });
        expect(res.status, `${path}: ${res.text}`).toBe(201);
        return res.body.data;
      };
      const who = await signIn(svc, key);
      const wallet = await claimWallet(svc, who);
      const delegated = await post(
        '/delegated-sessions',
        { walletId: wallet.id, permissions: { templates: ['*'], choices: ['*'] }, expiresIn: '1h' },
        who.headers,
      );
      owned[tenant] = {
        key,
        session: who.headers['authorization']!,
        delegatedToken: `Bearer ${delegated.token}`,
        shares: [wallet.deviceShare, wallet.recoveryShare],
        ids: {
          app: (await post('/apps', { name: `${tenant} isolated app` })).id,
          user: who.user.id,
          apiKey: (await post('/api-keys', { name: `${tenant} isolated key` })).id,
          webhook: (await post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).id,
          guest: (await post('/guests', {})).id,
          wallet: wallet.id,
          delegated: delegated.id,
        },
      };
    }
  });
  afterAll(() => svc.close());

  it('covers every operation of the OpenAPI document whose path names a record', async () => {
    const doc = (await svc.request('GET', '/v1/openapi.json', { key: null })).body as { paths: Record<string, Record<string, unknown>> };
    const covered = new Set(MATRIX.map(([method, path]) => `${method} /v1${path}`));
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.includes('{')) continue;
      for (const method of Object.keys(operations)) expect(covered.has(`${method.toUpperCase()} ${path}`), `${method} ${path} is not in the matrix`).toBe(true);
    }
  });

  type Case = [Tenant, string, string, Slot, CollectionName, Auth, ((victim: Owned, asker: Owned) => unknown) | undefined];
  const cases: Case[] = (['acme', 'globex'] as const).flatMap((asker) =>
    MATRIX.map(([method, path, slot, collection, auth, body]): Case => [asker, method, path, slot, collection, auth, body]),
  );
  it.each(cases)(
    "%s: %s %s with the other tenant's %s is refused as for an id that never existed",
    async (asker, method, path, slot, collection, auth, body) => {
      const me = owned[asker];
      const victim = owned[asker === 'acme' ? 'globex' : 'acme'];
      const before = svc.emulator.rt.store.get(collection, victim.ids[slot]);
      expect(before).toBeDefined();
      const headers = auth === 'key' ? {} : { authorization: auth === 'session' ? me.session : me.delegatedToken };
      const send = (id: string) => {
        const given = body?.(victim, me);
        // An id in the body (POST /mpc/shares …) is swapped the same way as one in the path.
        const swapped = given === undefined ? undefined : JSON.parse(JSON.stringify(given).replaceAll(victim.ids[slot], id));
        return svc.request(method, path.replace(/\{\w+\}/, id), { key: me.key, headers, ...(swapped === undefined ? {} : { body: swapped }) });
      };
      const res = await send(victim.ids[slot]);
      // A delegated token names its own session: any other id, of any tenant or of none, is refused
      // as 401 before a lookup. Every other call looks the record up in the asker's tenant: 404.
      const [status, code] = auth === 'delegated' ? [401, 'invalid_session'] : [404, 'not_found'];
      expect(res.status, res.text).toBe(status);
      expect(res.body).toEqual({ error: expect.any(String), code, details: [] });
      // Exactly what an id that never existed gets, so existence does not leak.
      const never = await send(victim.ids[slot].replace(/_[0-9A-Za-z]+$/, '_doesNotExist00000000000'));
      expect([never.status, never.body.code]).toEqual([status, code]);
      expect(svc.emulator.rt.store.get(collection, victim.ids[slot])).toEqual(before);
    },
  );

  it('left each tenant able to use its own records', async () => {
    for (const tenant of ['acme', 'globex'] as const) {
      const mine = owned[tenant];
      expect((await svc.request('GET', `/apps/${mine.ids.app}`, { key: mine.key })).status).toBe(200);
      expect((await svc.request('GET', `/guests/${mine.ids.guest}`, { key: mine.key })).status).toBe(200);
      expect((await svc.request('GET', `/delegated-sessions/${mine.ids.delegated}`, { key: mine.key, headers: { authorization: mine.session } })).status).toBe(
        200,
      );
      expect((await svc.request('GET', `/mpc/shares/${mine.ids.wallet}`, { key: mine.key, headers: { authorization: mine.session } })).status).toBe(200);
    }
  });
});
