import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY, tempDataDir } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { asUser, claimWallet, enableMfa, signIn } from '../test-support/signed-in.js';
import { partyIdFor } from '../crypto/party.js';
import { Sealer } from '../crypto/seal.js';
import { openShares } from '../services/wallets.js';
import type { LegacyWalletRecord, WalletRecord } from '../store/records.js';
import { delegatedSessionsRoutes } from './delegated-sessions.js';
import { mpcRoutes } from './mpc.js';
import { walletsRoutes } from './wallets.js';

describe('POST/GET /users/me/wallet', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    // On disk, to show that no file of the store holds a handed-out share.
    svc = await startInProcess({ dataDir: tempDataDir() });
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

  it("claims once: the wallet with the user's partyId and, this once, shares 2 and 3; emits wallet.created", async () => {
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
    // Only share 1 stays, sealed on its own.
    const record = svc.emulator.rt.store.get('wallets', wallet.id)!;
    expect(record).toHaveProperty('shares', expect.any(String));
    const kept = openShares(svc.emulator.rt.sealer, record);
    expect(kept.pending).toEqual([]);
    expect(kept.server).toHaveLength(33);
    expect(svc.emulator.rt.sealer.open((record as WalletRecord).shares)).toHaveLength(33);
    // Whatever files the store keeps (the JSON file, a journal), none holds a share.
    const files = readdirSync(svc.dataDir!)
      .map((name) => join(svc.dataDir!, name))
      .filter((path) => statSync(path).isFile());
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

  it("does not take another tenant's session", async () => {
    const who = await signIn(svc);
    const res = await svc.request('GET', '/users/me/wallet', { key: GLOBEX_KEY, headers: who.headers });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_session');
  });

  it('describes the wallet, MPC and delegated-session operations in OpenAPI, mounted as app.ts mounts them', () => {
    // Built from these routers alone, so that another area's schema cannot hide a fault of ours.
    const { rt } = svc.emulator;
    const api = new OpenAPIHono();
    api.route('/users/me/wallet', walletsRoutes(rt));
    api.route('/mpc', mpcRoutes(rt));
    api.route('/delegated-sessions', delegatedSessionsRoutes(rt));
    const document = api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'svc', version: '0' } });
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual([
      'DELETE /delegated-sessions/{id}',
      'DELETE /mpc/shares/{walletId}',
      'GET /delegated-sessions/{id}',
      'GET /mpc/shares/{walletId}',
      'GET /users/me/wallet',
      'POST /delegated-sessions',
      'POST /delegated-sessions/{id}/execute',
      'POST /delegated-sessions/{id}/query',
      'POST /mpc/recover',
      'POST /mpc/shares',
      'POST /users/me/wallet',
    ]);
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['ClaimedWallet', 'KeyShare', 'RecoveredKey', 'DelegatedSession', 'LedgerCommand', 'Transaction', 'Contract']),
    );
  });
});

describe('a data dir written in the earlier wallet layout (partyId repeated, three sealed shares)', () => {
  /** Rewrites every wallet of the stopped emulator's db.json as an earlier svc wrote it, as one line. */
  function toEarlierLayout(dataDir: string): void {
    const path = join(dataDir, 'db.json');
    const sealer = Sealer.forDataDir(dataDir);
    const document = JSON.parse(readFileSync(path, 'utf8')) as { users: Array<{ id: string; partyId: string }>; wallets: WalletRecord[] };
    const partyOf = new Map(document.users.map((user) => [user.id, user.partyId]));
    const wallets = document.wallets.map((wallet): LegacyWalletRecord => {
      const { server, pending } = openShares(sealer, wallet);
      return {
        id: wallet.id,
        tenantId: wallet.tenantId,
        userId: wallet.userId,
        partyId: partyOf.get(wallet.userId)!,
        publicKey: wallet.publicKey,
        serverShare: sealer.seal(server),
        pendingShares: pending.map((share) => sealer.seal(share)),
        claimedAt: wallet.claimedAt,
        createdAt: wallet.createdAt,
      };
    });
    writeFileSync(path, JSON.stringify({ ...document, wallets }));
  }

  it('opens, answers and claims earlier wallets exactly as before', async () => {
    const dataDir = tempDataDir();
    const first = await startInProcess({ dataDir });
    const claimedUser = await signIn(first);
    const waitingUser = await signIn(first);
    const claimed = await claimWallet(first, claimedUser);
    const before = await asUser(first, claimedUser)('GET', '/users/me/wallet');
    await first.stop();
    toEarlierLayout(dataDir);

    const svc = await startInProcess({ dataDir });
    try {
      const store = svc.emulator.rt.store;
      expect(store.get('wallets', claimed.id)).toHaveProperty('serverShare');
      const again = await asUser(svc, claimedUser)('GET', '/users/me/wallet');
      expect(again.status).toBe(200);
      expect(again.body).toEqual(before.body);

      // Share 1 of the earlier layout is retrieved and recovers the key with the device share.
      const mfa = await enableMfa(svc, claimedUser);
      await mfa.verify();
      const call = asUser(svc, claimedUser);
      const retrieved = await call('GET', `/mpc/shares/${claimed.id}`);
      const server = retrieved.body.data.find((share: { shareIndex: number }) => share.shareIndex === 1);
      const fromServer = await call('POST', '/mpc/recover', { walletId: claimed.id, shares: [server.share, claimed.deviceShare] });
      const fromClient = await call('POST', '/mpc/recover', { walletId: claimed.id, shares: [claimed.deviceShare, claimed.recoveryShare] });
      expect(fromServer.status).toBe(200);
      expect(fromServer.body.data.privateKey).toBe(fromClient.body.data.privateKey);

      // An unclaimed earlier wallet is claimed once, its pending shares erased in place.
      const res = await asUser(svc, waitingUser)('POST', '/users/me/wallet', {});
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ userId: waitingUser.user.id, partyId: waitingUser.user.partyId });
      const record = store.get('wallets', res.body.data.id) as LegacyWalletRecord;
      expect(record.pendingShares).toEqual([]);
      expect(record.claimedAt).toBe(res.body.data.createdAt);
      const recovered = await asUser(svc, waitingUser)('POST', '/mpc/recover', {
        walletId: record.id,
        shares: [res.body.data.deviceShare, res.body.data.recoveryShare],
      });
      expect(recovered.status).toBe(200);
      expect((await asUser(svc, waitingUser)('POST', '/users/me/wallet', {})).status).toBe(409);
    } finally {
      await svc.close();
    }
  });
});
