import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../test-support/harness.js';
import { asUser, claimWallet, signIn } from '../test-support/signed-in.js';
import { partyIdFor } from '../crypto/party.js';
import { delegatedSessionsRoutes } from './delegated-sessions.js';
import { mpcRoutes } from './mpc.js';
import { walletRoutes } from './wallet.js';

describe('POST/GET /users/me/wallet', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  const eventsOf = (type: string, userId: string) =>
    svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).filter((event) => event.type === type && event.data['userId'] === userId);

  it('is 404 before the claim, and GET /users/me/wallet is not taken for GET /users/{id}', async () => {
    const who = await signIn(svc);
    const res = await asUser(svc, who)('GET', '/users/me/wallet');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(res.body.error).toContain('POST /users/me/wallet');
  });

  it('claims once: the wallet with the user\'s partyId and, this once, shares 2 and 3; emits wallet.created', async () => {
    const who = await signIn(svc);
    const call = asUser(svc, who);
    const res = await call('POST', '/users/me/wallet', {});
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const wallet = res.body.data;
    expect(wallet).toMatchObject({ userId: who.user.id, partyId: who.user.partyId });
    expect(wallet.id).toMatch(/^wal_[0-9A-Za-z]+$/);
    expect(wallet.publicKey).toMatch(/^[0-9a-f]{64}$/);
    // D13: the party id is the fingerprint of this very public key.
    const hint = who.user.partyId.split('::')[0]!;
    expect(partyIdFor(hint, Buffer.from(wallet.publicKey, 'hex'))).toBe(who.user.partyId);
    const [userCreated] = eventsOf('user.created', who.user.id);
    expect(userCreated?.data['partyId']).toBe(wallet.partyId);
    for (const share of [wallet.deviceShare, wallet.recoveryShare]) expect(Buffer.from(share, 'base64')).toHaveLength(33);
    expect(wallet.deviceShare).not.toBe(wallet.recoveryShare);

    const created = eventsOf('wallet.created', who.user.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({ walletId: wallet.id, partyId: wallet.partyId });

    const again = await call('POST', '/users/me/wallet', {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    expect(eventsOf('wallet.created', who.user.id)).toHaveLength(1);

    const got = await call('GET', '/users/me/wallet');
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ id: wallet.id, userId: who.user.id, partyId: wallet.partyId, publicKey: wallet.publicKey, createdAt: wallet.createdAt });
  });

  it('erases shares 2 and 3 from the store and the data file once handed out', async () => {
    const who = await signIn(svc);
    const wallet = await claimWallet(svc, who);
    expect(svc.emulator.rt.store.get('wallets', wallet.id)?.pendingShares).toEqual([]);
    // Whatever files the store keeps (the JSON file, a journal), none holds a share.
    const files = readdirSync(svc.dataDir).map((name) => join(svc.dataDir, name)).filter((path) => statSync(path).isFile());
    const text = files.map((path) => readFileSync(path, 'utf8')).join('\n');
    expect(text.includes(wallet.id)).toBe(true);
    for (const share of [wallet.deviceShare, wallet.recoveryShare]) expect(text.includes(share)).toBe(false);
  });

  it.each([
    { what: 'no session', headers: {}, status: 401, code: 'missing_session' },
    { what: 'an unknown token', headers: { authorization: 'Bearer st_nope' }, status: 401, code: 'invalid_session' },
  ])('answers $status $code with $what', async ({ headers, status, code }) => {
    for (const method of ['GET', 'POST']) {
      const res = await svc.request(method, '/users/me/wallet', { headers, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    }
  });

  it('does not take another tenant\'s session', async () => {
    const who = await signIn(svc);
    const res = await svc.request('GET', '/users/me/wallet', { key: GLOBEX_KEY, headers: who.headers });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_session');
  });

  it('describes the wallet, MPC and delegated-session operations in OpenAPI, mounted as app.ts mounts them', () => {
    // Built from these routers alone, so that another area's schema cannot hide a fault of ours.
    const { rt } = svc.emulator;
    const api = new OpenAPIHono();
    api.route('/users/me/wallet', walletRoutes(rt));
    api.route('/mpc', mpcRoutes(rt));
    api.route('/delegated-sessions', delegatedSessionsRoutes(rt));
    const document = api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'svc', version: '0' } });
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual([
      'DELETE /delegated-sessions/{id}', 'DELETE /mpc/shares/{walletId}', 'GET /delegated-sessions/{id}', 'GET /mpc/shares/{walletId}',
      'GET /users/me/wallet', 'POST /delegated-sessions', 'POST /delegated-sessions/{id}/execute', 'POST /delegated-sessions/{id}/query',
      'POST /mpc/recover', 'POST /mpc/shares', 'POST /users/me/wallet',
    ]);
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(expect.arrayContaining(['ClaimedWallet', 'KeyShare', 'RecoveredKey', 'DelegatedSession', 'LedgerCommand', 'Transaction', 'Contract']));
  });
});
