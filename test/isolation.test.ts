/**
 * Tenant isolation (D3) between the two seeded tenants over real HTTP: another tenant's
 * record is 404 (never 403), for reads and writes alike, and never shows up in a list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

interface Owned {
  appId: string;
  userId: string;
  keyId: string;
  key: string;
}

describe('isolation between Acme and Globex', () => {
  let svc: TestEmulator;
  const owned: Record<'acme' | 'globex', Owned> = {} as Record<'acme' | 'globex', Owned>;

  beforeAll(async () => {
    svc = await startTestEmulator();
    for (const [tenant, key] of [
      ['acme', ACME_KEY],
      ['globex', GLOBEX_KEY],
    ] as const) {
      const app = await svc.request('POST', '/apps', { key, body: { name: `${tenant} private app` } });
      const user = await svc.request('POST', '/users', { key, body: { email: `${tenant}.private@example.com` } });
      const apiKey = await svc.request('POST', '/api-keys', { key, body: { name: `${tenant} private key` } });
      expect([app.status, user.status, apiKey.status]).toEqual([201, 201, 201]);
      owned[tenant] = { appId: app.body.data.id, userId: user.body.data.id, keyId: apiKey.body.data.id, key: apiKey.body.data.key };
    }
  });
  afterAll(() => svc.close());

  // [who asks, whose record, method, path template, body]
  const attempts = [
    ['GET', '/apps/{appId}', undefined],
    ['PATCH', '/apps/{appId}', { name: 'hijacked' }],
    ['DELETE', '/apps/{appId}', undefined],
    ['GET', '/users/{userId}', undefined],
    ['DELETE', '/api-keys/{keyId}', undefined],
  ] as const;
  const pairs = [
    ['Acme', ACME_KEY, 'globex'],
    ['Globex', GLOBEX_KEY, 'acme'],
  ] as const;
  const cases = pairs.flatMap(([asker, key, victim]) => attempts.map(([method, path, body]) => [asker, method, path, victim, key, body] as const));

  it.each(cases)("%s: %s %s of %s's record is 404 not_found", async (_asker, method, path, victim, key, body) => {
    const target = owned[victim];
    const url = path.replace(/\{(\w+)\}/, (_m, field: keyof Owned) => target[field]);
    const res = await svc.request(method, url, { key, ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String), code: 'not_found', details: [] });
    // The same answer as for an id that never existed, so existence does not leak.
    const never = await svc.request(method, url.replace(/_[0-9A-Za-z]+$/, '_doesNotExist000000000000'), { key, ...(body === undefined ? {} : { body }) });
    expect(never.status).toBe(404);
    expect(never.body.code).toBe('not_found');
  });

  it('left every record as it was, and each owner still reaches its own', async () => {
    for (const [tenant, key] of [
      ['acme', ACME_KEY],
      ['globex', GLOBEX_KEY],
    ] as const) {
      const mine = owned[tenant];
      const app = await svc.request('GET', `/apps/${mine.appId}`, { key });
      expect(app.status).toBe(200);
      expect(app.body.data.name).toBe(`${tenant} private app`);
      expect((await svc.request('GET', `/users/${mine.userId}`, { key })).status).toBe(200);
      // The key the other tenant tried to revoke still works.
      expect((await svc.request('GET', '/apps', { key: mine.key })).status).toBe(200);
      const keys = (await svc.request('GET', '/api-keys', { key })).body.data as Array<{ id: string; status: string }>;
      expect(keys.find((k) => k.id === mine.keyId)?.status).toBe('active');
    }
  });

  it.each([
    ['Acme', ACME_KEY, 'globex', 'acme'],
    ['Globex', GLOBEX_KEY, 'acme', 'globex'],
  ] as const)("%s's lists hold only its own records", async (_label, key, other, self) => {
    const apps = (await svc.request('GET', '/apps?page_size=100', { key })).body;
    const users = (await svc.request('GET', '/users?page_size=100', { key })).body;
    const keys = (await svc.request('GET', '/api-keys', { key })).body;
    const appIds = apps.data.map((a: { id: string }) => a.id);
    const userIds = users.data.map((u: { id: string }) => u.id);
    const keyIds = keys.data.map((k: { id: string }) => k.id);
    expect(appIds).toContain(owned[self].appId);
    expect(appIds).not.toContain(owned[other].appId);
    expect(userIds).toContain(owned[self].userId);
    expect(userIds).not.toContain(owned[other].userId);
    expect(keyIds).toContain(owned[self].keyId);
    expect(keyIds).not.toContain(owned[other].keyId);
    for (const user of users.data as Array<{ email: string | null }>) {
      if (user.email !== null) expect(user.email).not.toMatch(other === 'acme' ? /@acme\.test$/ : /@globex\.test$/);
    }
    expect(users.total).toBe(51);
    // Searching for the other tenant's people finds nobody.
    expect((await svc.request('GET', `/users?search=${other}.private`, { key })).body.total).toBe(0);
    expect((await svc.request('GET', `/apps?search=${other}`, { key })).body.total).toBe(0);
  });

  it('an app name or email taken in one tenant is free in the other', async () => {
    expect((await svc.request('POST', '/apps', { key: GLOBEX_KEY, body: { name: 'Acme Web' } })).status).toBe(201);
    expect((await svc.request('POST', '/users', { key: ACME_KEY, body: { email: 'globex.private@example.com' } })).status).toBe(201);
  });
});
