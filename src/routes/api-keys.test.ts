/**
 * /v1/api-keys and `x-api-key` authentication (D3), in-process with the store on disk: the value
 * is shown once, never listed nor stored, and a revoked key is refused from the very next request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, ACME_TENANT_ID, GLOBEX_KEY, GLOBEX_TENANT_ID, tempDataDir } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { expectError } from '../test-support/expect-error.js';

const KEY_FIELDS = ['createdAt', 'id', 'last4', 'name', 'prefix', 'revokedAt', 'status'];

describe('/v1/api-keys', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    // On disk, to show that no file of the store holds a key value.
    svc = await startInProcess({ dataDir: tempDataDir() });
  });
  afterAll(() => svc.close());

  it('lists the seeded key with prefix and last4, never its value', async () => {
    const res = await svc.request('GET', '/api-keys');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ name: 'default', prefix: ACME_KEY.slice(0, 12), last4: ACME_KEY.slice(-4), status: 'active', revokedAt: null });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(KEY_FIELDS);
    expect(res.text).not.toContain(ACME_KEY);
  });

  it('creates a key (201) whose value is shown once, works at once, and is never listed or stored', async () => {
    const created = await svc.request('POST', '/api-keys', { body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = created.body.data;
    expect(key).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'ci', status: 'active', revokedAt: null });
    expect(key.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(key.prefix).toBe(key.key.slice(0, 12));
    expect(key.last4).toBe(key.key.slice(-4));

    const asNewKey = await svc.request('GET', '/tenant', { key: key.key });
    expect(asNewKey.status).toBe(200);
    expect(asNewKey.body.data.id).toBe(ACME_TENANT_ID);

    const listed = await svc.request('GET', '/api-keys');
    const entry = listed.body.data.find((k: { id: string }) => k.id === key.id);
    expect(Object.keys(entry).sort()).toEqual(KEY_FIELDS);
    expect(listed.text).not.toContain(key.key);
    // Newest first.
    expect(listed.body.data[0].id).toBe(key.id);

    // Nothing the store writes (whatever its files) holds a key value: only hashes.
    await svc.request('POST', '/apps', { body: { name: 'flush' } });
    for (const file of readdirSync(svc.dataDir!)) {
      const onDisk = readFileSync(join(svc.dataDir!, file), 'utf8');
      expect(onDisk, file).not.toContain(key.key);
      expect(onDisk, file).not.toContain(ACME_KEY);
    }
    const event = [...svc.emulator.rt.store.all('events')].find((e) => e.type === 'api_key.created' && e.data['apiKeyId'] === key.id);
    expect(event).toBeDefined();
    expect(JSON.stringify(event)).not.toContain(key.key);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a name over 100 characters', { name: 'k'.repeat(101) }],
  ])('POST /api-keys with %s is 400 validation_error on name', async (_label, body) => {
    const res = await svc.request('POST', '/api-keys', { body });
    expectError(res, 400, 'validation_error');
    expect(res.body.details[0]).toMatchObject({ path: 'name', in: 'body' });
  });

  it('revokes a key: 200 with status revoked, 401 invalid_api_key at once, shown revoked in the list', async () => {
    const { body } = await svc.request('POST', '/api-keys', { body: { name: 'short-lived' } });
    const { id, key } = body.data as { id: string; key: string };
    expect((await svc.request('GET', '/apps', { key })).status).toBe(200);

    const revoked = await svc.request('DELETE', `/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, status: 'revoked', revokedAt: expect.stringMatching(/Z$/) });
    expect(revoked.body.data.key).toBeUndefined();

    const refused = await svc.request('GET', '/apps', { key });
    expectError(refused, 401, 'invalid_api_key');
    expect(refused.body.error).toMatch(/revoked/);
    expectError(await svc.request('POST', '/apps', { key, body: { name: 'sneaky' } }), 401, 'invalid_api_key');

    const listed = (await svc.request('GET', '/api-keys')).body.data.find((k: { id: string }) => k.id === id);
    expect(listed).toMatchObject({ status: 'revoked', revokedAt: revoked.body.data.revokedAt });
    // Revoking again answers the same record; the revocation time does not move.
    const again = await svc.request('DELETE', `/api-keys/${id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    expect([...svc.emulator.rt.store.all('events')].filter((e) => e.type === 'api_key.revoked' && e.data['apiKeyId'] === id)).toHaveLength(1);
  });

  it('a key may revoke itself; its next request is 401', async () => {
    const { body } = await svc.request('POST', '/api-keys', { body: { name: 'self' } });
    const { id, key } = body.data as { id: string; key: string };
    expect((await svc.request('DELETE', `/api-keys/${id}`, { key })).status).toBe(200);
    expectError(await svc.request('GET', '/api-keys', { key }), 401, 'invalid_api_key');
  });

  it.each(['key_doesNotExist000000000', 'nope'])('DELETE /api-keys/%s is 404 not_found', async (id) => {
    expectError(await svc.request('DELETE', `/api-keys/${id}`), 404, 'not_found');
  });
});

describe('x-api-key authentication', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  it.each([
    ['no header', null, {}, 'missing_api_key'],
    ['an empty header', null, { 'x-api-key': '' }, 'missing_api_key'],
    ['a blank header', null, { 'x-api-key': '   ' }, 'missing_api_key'],
    ['an unknown key', 'sk_test_00000000000000000000000000000000', {}, 'invalid_api_key'],
    ['a key one character off', `${ACME_KEY.slice(0, -1)}2`, {}, 'invalid_api_key'],
    ['a key in another case', ACME_KEY.toUpperCase(), {}, 'invalid_api_key'],
    ['a bearer token instead', null, { authorization: `Bearer ${ACME_KEY}` }, 'missing_api_key'],
  ])('%s is 401 %s', async (_label, key, headers, code) => {
    for (const [method, path] of [
      ['GET', '/apps'],
      ['POST', '/users'],
      ['GET', '/tenant'],
      ['DELETE', '/api-keys/key_x'],
      ['GET', '/v1/unknown-route'],
    ]) {
      expectError(await svc.request(method!, path!, { key, headers }), 401, code);
    }
  });

  it.each([
    ['Acme', ACME_KEY, ACME_TENANT_ID],
    ['Globex', GLOBEX_KEY, GLOBEX_TENANT_ID],
  ])('the %s key acts for its own tenant', async (_label, key, tenantId) => {
    const res = await svc.request('GET', '/tenant', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(tenantId);
  });

  it.each(['/v1/healthz', '/v1/readyz', '/v1/openapi.json', '/healthz', '/readyz'])('%s needs no key', async (path) => {
    expect((await svc.request('GET', path, { key: null })).status).toBe(200);
  });
});
