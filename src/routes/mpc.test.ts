import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBEX_KEY, tempDataDir } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { asUser, claimWallet, enableMfa, signIn, type SignedInUser } from '../test-support/signed-in.js';

type Wallet = Awaited<ReturnType<typeof claimWallet>>;

/** Signs with the recovered seed and checks the signature with the wallet's public key. */
function signsForWallet(privateKeyHex: string, publicKeyHex: string): boolean {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(privateKeyHex, 'hex')]);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]);
  const message = Buffer.from('svc wallet recovery check');
  const signature = sign(null, message, createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
  return verify(null, message, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature);
}

describe('MPC key management', () => {
  let svc: InProcessEmulator;
  let alice: SignedInUser;
  let wallet: Wallet;
  let aliceCall: ReturnType<typeof asUser>;

  beforeAll(async () => {
    // On disk, to show that no file of the store holds a client share.
    svc = await startInProcess({ dataDir: tempDataDir() });
    alice = await signIn(svc);
    wallet = await claimWallet(svc, alice);
    aliceCall = asUser(svc, alice);
  });
  afterAll(() => svc.close());

  const recover = (shares: string[], call = aliceCall, walletId = wallet.id) => call('POST', '/mpc/recover', { walletId, shares });

  it('recovers the same key from shares 2+3 and, with share 1 from retrieve, from 1+2 and 1+3', async () => {
    const fromClientShares = await recover([wallet.deviceShare, wallet.recoveryShare]);
    expect(fromClientShares.status).toBe(200);
    expect(fromClientShares.headers.get('cache-control')).toBe('no-store');
    const key = fromClientShares.body.data;
    expect(key).toEqual({ walletId: wallet.id, publicKey: wallet.publicKey, privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(signsForWallet(key.privateKey, wallet.publicKey)).toBe(true);

    const retrieved = await aliceCall('GET', `/mpc/shares/${wallet.id}`);
    expect(retrieved.status).toBe(200);
    const server = retrieved.body.data.find((share: { shareIndex: number }) => share.shareIndex === 1);
    expect(server).toMatchObject({ id: null, walletId: wallet.id, source: 'server' });
    for (const pair of [
      [server.share, wallet.deviceShare],
      [wallet.recoveryShare, server.share],
    ]) {
      const res = await recover(pair);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(key);
    }
  });

  it('stores a share sealed at rest, answers it on retrieve, and refuses a taken index with 409', async () => {
    const stored = await aliceCall('POST', '/mpc/shares', { walletId: wallet.id, shareIndex: 2, share: wallet.deviceShare, label: 'phone' });
    expect(stored.status).toBe(201);
    expect(stored.body.data).toEqual({ id: expect.stringMatching(/^shr_/), walletId: wallet.id, shareIndex: 2, label: 'phone', createdAt: expect.any(String) });
    expect(stored.body.data.share).toBeUndefined();

    for (const shareIndex of [2, 1]) {
      const taken = await aliceCall('POST', '/mpc/shares', { walletId: wallet.id, shareIndex, share: wallet.recoveryShare });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('conflict');
    }

    const retrieved = await aliceCall('GET', `/mpc/shares/${wallet.id}`);
    expect(retrieved.body.data.map((s: { shareIndex: number; source: string }) => [s.shareIndex, s.source])).toEqual([
      [1, 'server'],
      [2, 'client'],
    ]);
    expect(retrieved.body.data[1]).toMatchObject({ id: stored.body.data.id, label: 'phone', share: wallet.deviceShare });

    const record = svc.emulator.rt.store.get('keyShares', stored.body.data.id)!;
    expect(JSON.stringify(record)).not.toContain(wallet.deviceShare);
    const files = readdirSync(svc.dataDir!)
      .map((name) => join(svc.dataDir!, name))
      .filter((path) => statSync(path).isFile());
    const onDisk = files.map((path) => readFileSync(path, 'utf8')).join('\n');
    expect(onDisk.includes(stored.body.data.id)).toBe(true);
    expect(onDisk.includes(wallet.deviceShare)).toBe(false);
  });

  it('deletes the stored shares; the wallet keeps its own share 1', async () => {
    const deleted = await aliceCall('DELETE', `/mpc/shares/${wallet.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ walletId: wallet.id, deleted: 1 });
    const retrieved = await aliceCall('GET', `/mpc/shares/${wallet.id}`);
    expect(retrieved.body.data.map((s: { shareIndex: number }) => s.shareIndex)).toEqual([1]);
    expect((await aliceCall('DELETE', `/mpc/shares/${wallet.id}`)).body.data.deleted).toBe(0);
  });

  it('answers 400 share_mismatch for a share of another key or a tampered share', async () => {
    const bob = await signIn(svc);
    const bobWallet = await claimWallet(svc, bob);
    const tampered = Buffer.from(wallet.recoveryShare, 'base64');
    tampered[0] = tampered[0]! ^ 0xff;
    for (const shares of [
      [wallet.deviceShare, bobWallet.recoveryShare],
      [wallet.deviceShare, tampered.toString('base64')],
      [bobWallet.deviceShare, bobWallet.recoveryShare],
    ]) {
      const res = await recover(shares);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('share_mismatch');
      expect(res.text).not.toMatch(/privateKey/);
    }
  });

  it.each([
    { what: 'one share alone', shares: () => [wallet.deviceShare], path: 'shares' },
    { what: 'no shares', shares: () => [], path: 'shares' },
    { what: 'the same share twice', shares: () => [wallet.deviceShare, wallet.deviceShare], path: 'shares.1' },
    { what: 'a share that is not base64', shares: () => [wallet.deviceShare, 'not base64!'], path: 'shares.1' },
    { what: 'a share of the wrong length', shares: () => [wallet.deviceShare, Buffer.alloc(16, 1).toString('base64')], path: 'shares.1' },
  ])('answers 400 validation_error for $what', async ({ shares, path }) => {
    const res = await recover(shares());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it("answers 404 for another user's, another tenant's, an unclaimed or an unknown wallet", async () => {
    const mallory = await signIn(svc);
    const globex = await signIn(svc, GLOBEX_KEY);
    const unclaimed = await signIn(svc);
    const cases: Array<[SignedInUser, string]> = [
      [mallory, wallet.id],
      [globex, wallet.id],
      [unclaimed, unclaimed.user.walletId],
      [alice, 'wal_doesNotExist000000000'],
    ];
    for (const [who, walletId] of cases) {
      const call = asUser(svc, who);
      const answers = [
        await call('POST', '/mpc/shares', { walletId, shareIndex: 3, share: wallet.recoveryShare }),
        await call('GET', `/mpc/shares/${walletId}`),
        await call('DELETE', `/mpc/shares/${walletId}`),
        await recover([wallet.deviceShare, wallet.recoveryShare], call, walletId),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
  });

  it('needs a session: 401 missing_session', async () => {
    const res = await svc.request('GET', `/mpc/shares/${wallet.id}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_session');
  });

  it('puts retrieve, delete and recover behind the MFA guard; storing is not guarded', async () => {
    const carol = await signIn(svc);
    const carolWallet = await claimWallet(svc, carol);
    const call = asUser(svc, carol);
    const mfa = await enableMfa(svc, carol);
    const guarded = () => [
      call('GET', `/mpc/shares/${carolWallet.id}`),
      call('DELETE', `/mpc/shares/${carolWallet.id}`),
      recover([carolWallet.deviceShare, carolWallet.recoveryShare], call, carolWallet.id),
    ];
    for (const res of await Promise.all(guarded())) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('mfa_required');
    }
    const stored = await call('POST', '/mpc/shares', { walletId: carolWallet.id, shareIndex: 3, share: carolWallet.recoveryShare });
    expect(stored.status).toBe(201);

    await mfa.verify();
    const [retrieved, deleted, recovered] = await Promise.all(guarded());
    expect([retrieved!.status, deleted!.status, recovered!.status]).toEqual([200, 200, 200]);
    expect(recovered!.body.data.publicKey).toBe(carolWallet.publicKey);
  });
});
