import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../test-support/harness.js';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { asUser, claimWallet, enableMfa, signIn, type SignedInUser } from '../test-support/signed-in.js';
import { verifySignature } from '../webhooks/signature.js';

const IOU = '#pkg:Iou:Iou';
const TRANSFER = '#pkg:Iou:IouTransfer';

describe('delegated sessions on the embedded ledger', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let secret: string;
  let alice: SignedInUser;
  let walletId: string;
  let partyId: string;

  beforeAll(async () => {
    svc = await startTestEmulator();
    receiver = await startReceiver();
    const hook = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['tx.completed', 'tx.failed', 'session.revoked'] } });
    secret = hook.body.data.secret;
    alice = await signIn(svc);
    ({ id: walletId, partyId } = await claimWallet(svc, alice));
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
  });

  const open = async (body: Record<string, unknown> = {}, who = alice) => {
    const res = await asUser(svc, who)('POST', '/delegated-sessions', {
      walletId,
      permissions: { templates: [IOU, TRANSFER], choices: ['Transfer'] },
      expiresIn: '1h',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; token: string; expiresAt: string };
  };
  const as = (session: { id: string; token: string }) => ({
    execute: (command: unknown, key?: string) =>
      svc.request('POST', `/delegated-sessions/${session.id}/execute`, {
        headers: { authorization: `Bearer ${session.token}` },
        body: { command },
        ...(key ? { key } : {}),
      }),
    query: (body: Record<string, unknown> = {}) =>
      svc.request('POST', `/delegated-sessions/${session.id}/query`, { headers: { authorization: `Bearer ${session.token}` }, body }),
  });
  const get = (id: string) => asUser(svc, alice)('GET', `/delegated-sessions/${id}`);
  /** The signed delivery of the event whose data matches, as the real receiver got it. */
  const delivered = async (type: string, match: (data: Record<string, unknown>) => boolean) => {
    let found: { headers: Record<string, unknown>; body: string; payload: { type: string; data: Record<string, unknown> } } | undefined;
    await expect
      .poll(
        () => {
          for (const request of receiver.received) {
            const payload = JSON.parse(request.body.toString());
            if (payload.type === type && match(payload.data)) found = { headers: request.headers, body: request.body.toString(), payload };
          }
          return found !== undefined;
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    return found!;
  };

  it('creates a contract, exercises a choice, queries it, and tx.completed reaches a real receiver signed', async () => {
    const session = await open();
    expect(session.token).toMatch(/^dst_[0-9A-Za-z]{32}$/);
    const stored = svc.emulator.rt.store.get('delegatedSessions', session.id)!;
    expect(JSON.stringify(stored)).not.toContain(session.token);
    const delegate = as(session);

    const created = await delegate.execute({ create: { templateId: IOU, payload: { issuer: partyId, amount: '100.00' } } });
    expect(created.status).toBe(200);
    const tx = created.body.data;
    expect(tx).toMatchObject({ status: 'completed', sessionId: session.id, rejection: null });
    expect(tx.id).toMatch(/^tx_/);
    expect(tx.updateId).toMatch(/^upd_/);
    expect(tx.events).toEqual([
      { type: 'created', contractId: expect.stringMatching(/^ctr_/), templateId: IOU, payload: { issuer: partyId, amount: '100.00' }, signatories: [partyId] },
    ]);
    const contractId = tx.events[0].contractId;

    const delivery = await delivered('tx.completed', (data) => data['transactionId'] === tx.id);
    expect(
      verifySignature({
        secret,
        body: delivery.body,
        signature: delivery.headers['x-service-signature'] as string,
        timestamp: delivery.headers['x-service-timestamp'] as string,
      }),
    ).toBeGreaterThan(0);
    expect(delivery.payload.data).toMatchObject({ sessionId: session.id, updateId: tx.updateId, partyId, walletId, status: 'completed' });

    const exercised = await delegate.execute({ exercise: { contractId, choice: 'Transfer', argument: { newOwner: 'bob' } } });
    expect(exercised.status).toBe(200);
    expect(exercised.body.data.events).toEqual([
      { type: 'exercised', contractId, templateId: IOU, choice: 'Transfer', argument: { newOwner: 'bob' }, consuming: false },
    ]);
    expect(exercised.body.data.updateId).not.toBe(tx.updateId);

    const queried = await delegate.query({ templateId: IOU });
    expect(queried.status).toBe(200);
    expect(queried.body).toMatchObject({ total: 1, page: 1, pageSize: 20, hasMore: false });
    expect(queried.body.data[0]).toMatchObject({ contractId, templateId: IOU, payload: { amount: '100.00' }, status: 'active' });
    expect((await delegate.query({ templateId: TRANSFER })).body.total).toBe(0);

    const details = await get(session.id);
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({
      status: 'active',
      walletId,
      partyId,
      maxCommands: null,
      usage: { commands: 2, completed: 2, failed: 0, denied: 0, queries: 2, remaining: null },
    });
    expect(details.body.data.token).toBeUndefined();
  });

  it('answers a command the ledger rejects with status failed and emits tx.failed', async () => {
    const delegate = as(await open({ permissions: { templates: [IOU], choices: ['Archive'] } }));
    const contractId = (await delegate.execute({ create: { templateId: IOU, payload: {} } })).body.data.events[0].contractId;
    const archived = await delegate.execute({ exercise: { contractId, choice: 'Archive' } });
    expect(archived.body.data.events.map((e: { type: string }) => e.type)).toEqual(['exercised', 'archived']);
    expect((await delegate.query()).body.data.map((c: { contractId: string }) => c.contractId)).not.toContain(contractId);

    const again = await delegate.execute({ exercise: { contractId, choice: 'Archive' } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'failed', updateId: null, events: [], rejection: { code: 'CONTRACT_NOT_ACTIVE' } });
    const failed = await delivered('tx.failed', (data) => data['transactionId'] === again.body.data.id);
    expect(failed.payload.data).toMatchObject({ status: 'failed', code: 'CONTRACT_NOT_ACTIVE' });
  });

  it('pages through the active contracts, newest first', async () => {
    const delegate = as(await open({ permissions: { templates: [TRANSFER], choices: [] } }));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await delegate.execute({ create: { templateId: TRANSFER, payload: { n: i } } })).body.data.events[0].contractId);
      svc.emulator.rt.clock.advance(1_000);
    }
    const first = await delegate.query({ templateId: TRANSFER, pageSize: 2 });
    expect(first.body).toMatchObject({ total: 3, page: 1, pageSize: 2, hasMore: true });
    expect(first.body.data.map((c: { contractId: string }) => c.contractId)).toEqual([ids[2], ids[1]]);
    const second = await delegate.query({ templateId: TRANSFER, pageSize: 2, page: 2 });
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.data.map((c: { contractId: string }) => c.contractId)).toEqual([ids[0]]);
    expect((await delegate.query({ pageSize: 101 })).status).toBe(400);
  });

  it('refuses commands outside its permissions or its budget with 403 permission_denied', async () => {
    const session = await open({ permissions: { templates: [IOU], choices: ['Transfer'] }, maxCommands: 2 });
    const delegate = as(session);
    const contractId = (await delegate.execute({ create: { templateId: IOU, payload: {} } })).body.data.events[0].contractId;
    const refused = [
      await delegate.execute({ create: { templateId: TRANSFER, payload: {} } }),
      await delegate.execute({ exercise: { contractId, choice: 'Archive' } }),
      await delegate.execute({ exercise: { contractId, choice: 'Transfer', creates: [{ templateId: TRANSFER, payload: {} }] } }),
      await delegate.query({ templateId: TRANSFER }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    }
    expect((await delegate.execute({ exercise: { contractId, choice: 'Transfer' } })).status).toBe(200);
    const spent = await delegate.execute({ exercise: { contractId, choice: 'Transfer' } });
    expect(spent.status).toBe(403);
    expect(spent.body.error).toContain('all 2 of its commands');
    expect((await delegate.query()).status).toBe(200);
    expect((await get(session.id)).body.data).toMatchObject({ status: 'active', usage: { commands: 2, denied: 5, remaining: 0 } });
  });

  it('is 410 after revoke, which emits session.revoked; GET shows it revoked', async () => {
    const session = await open();
    const delegate = as(session);
    const revoked = await asUser(svc, alice)('DELETE', `/delegated-sessions/${session.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.status).toBe('revoked');
    await delivered('session.revoked', (data) => data['sessionId'] === session.id);
    for (const res of [await delegate.execute({ create: { templateId: IOU, payload: {} } }), await delegate.query(), await delegate.execute({ bad: true })]) {
      expect(res.status).toBe(410);
      expect(res.body.code).toBe('session_expired');
    }
    expect((await asUser(svc, alice)('DELETE', `/delegated-sessions/${session.id}`)).status).toBe(410);
    expect((await get(session.id)).body.data).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('is 410 once the emulator clock passes its expiry', async () => {
    const session = await open({ expiresIn: '2h' });
    const delegate = as(session);
    expect((await delegate.query()).status).toBe(200);
    const advanced = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '2h' } });
    expect(advanced.status).toBe(200);
    for (const res of [await delegate.execute({ create: { templateId: IOU, payload: {} } }), await delegate.query()]) {
      expect(res.status).toBe(410);
      expect(res.body.code).toBe('session_expired');
      // The clock ended it: details name its expiry, the emulator's now and the real now.
      expect(res.body.details).toEqual([
        expect.objectContaining({ expiresAt: session.expiresAt, emulatorNow: expect.stringMatching(/Z$/), realNow: expect.stringMatching(/Z$/) }),
      ]);
    }
    expect((await get(session.id)).body.data.status).toBe('expired');
  });

  it.each([
    { what: 'no token', headers: {}, code: 'missing_session' },
    { what: 'a user session token', headers: 'user', code: 'invalid_session' },
    { what: "another session's token", headers: 'other', code: 'invalid_session' },
    { what: "another tenant's key", headers: 'globex', code: 'invalid_session' },
  ])('answers 401 $code with $what', async ({ headers, code }) => {
    const session = await open();
    const other = await open();
    const key = headers === 'globex' ? GLOBEX_KEY : undefined;
    const authorization =
      headers === 'user'
        ? alice.headers
        : headers === 'other'
          ? { authorization: `Bearer ${other.token}` }
          : headers === 'globex'
            ? { authorization: `Bearer ${session.token}` }
            : {};
    const res = await svc.request('POST', `/delegated-sessions/${session.id}/query`, { headers: authorization, body: {}, ...(key ? { key } : {}) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(code);
  });

  it.each([
    { what: 'expiresIn over 30d', body: { expiresIn: '31d' }, path: 'expiresIn' },
    { what: 'expiresIn 0', body: { expiresIn: '0s' }, path: 'expiresIn' },
    { what: 'no templates', body: { permissions: { templates: [], choices: [] } }, path: 'permissions.templates' },
    { what: 'a bad choice name', body: { permissions: { templates: [IOU], choices: ['no spaces'] } }, path: 'permissions.choices.0' },
  ])('refuses $what with 400', async ({ body, path }) => {
    const res = await asUser(svc, alice)('POST', '/delegated-sessions', { walletId, permissions: { templates: [IOU], choices: [] }, expiresIn: '1h', ...body });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts 30d, and refuses a command that is neither or both of create and exercise', async () => {
    const delegate = as(await open({ expiresIn: '30d' }));
    for (const command of [{}, { create: { templateId: IOU, payload: {} }, exercise: { contractId: 'ctr_x', choice: 'Transfer' } }]) {
      const res = await delegate.execute(command);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });

  it("is 404 for another user's or tenant's wallet and session", async () => {
    const bob = await signIn(svc);
    await claimWallet(svc, bob);
    const session = await open();
    expect((await asUser(svc, bob)('POST', '/delegated-sessions', { walletId, permissions: { templates: [IOU], choices: [] }, expiresIn: '1h' })).status).toBe(
      404,
    );
    expect((await asUser(svc, bob)('GET', `/delegated-sessions/${session.id}`)).status).toBe(404);
    expect((await asUser(svc, bob)('DELETE', `/delegated-sessions/${session.id}`)).status).toBe(404);
    const globex = await signIn(svc, GLOBEX_KEY);
    expect((await asUser(svc, globex)('GET', `/delegated-sessions/${session.id}`)).status).toBe(404);
  });

  it('puts create behind the MFA guard', async () => {
    const carol = await signIn(svc);
    const carolWallet = await claimWallet(svc, carol);
    const mfa = await enableMfa(svc, carol);
    const body = { walletId: carolWallet.id, permissions: { templates: [IOU], choices: [] }, expiresIn: '1h' };
    const denied = await asUser(svc, carol)('POST', '/delegated-sessions', body);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('mfa_required');
    await mfa.verify();
    expect((await asUser(svc, carol)('POST', '/delegated-sessions', body)).status).toBe(201);
  });

  it('keeps the ledger and the sessions across a restart', async () => {
    const session = await open({ expiresIn: '30d' });
    const contractId = (await as(session).execute({ create: { templateId: IOU, payload: { durable: true } } })).body.data.events[0].contractId;
    const events = svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).length;
    await svc.stop();
    svc = await startTestEmulator({ dataDir: svc.dataDir });
    expect(svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).length).toBe(events);
    const queried = await as(session).query({ templateId: IOU });
    expect(queried.status).toBe(200);
    expect(queried.body.data.map((c: { contractId: string }) => c.contractId)).toContain(contractId);
  });
});
