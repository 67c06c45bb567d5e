import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

const HOUR = 60 * 60 * 1000;

async function createGuestOn(svc: InProcessEmulator) {
  const res = await svc.request('POST', '/guests', { body: {} });
  expect(res.status).toBe(201);
  return res;
}

describe('guest sessions', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const eventsOf = (type: string) => [...svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID)].filter((event) => event.type === type);

  it('creates a guest user with a session that lasts the tenant guestTtl, and emits guest.created only', async () => {
    const usersBefore = eventsOf('user.created').length;
    const now = svc.emulator.rt.clock.nowMs();
    const res = await createGuestOn(svc);
    const data = res.body.data;
    expect(data.id).toMatch(/^gst_[0-9A-Za-z]+$/);
    expect(data.status).toBe('active');
    expect(data.user).toMatchObject({ trustLevel: 'guest', email: null });
    expect(data.user.partyId).toMatch(/::1220[0-9a-f]{64}$/);
    expect(data.session.token).toMatch(/^st_[0-9A-Za-z]{32}$/);
    expect(Date.parse(data.expiresAt) - now).toBeGreaterThanOrEqual(24 * HOUR - 5_000);
    expect(Date.parse(data.expiresAt) - now).toBeLessThanOrEqual(24 * HOUR + 5_000);
    expect(data.session.expiresAt).toBe(data.expiresAt);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(eventsOf('guest.created').some((event) => event.data['guestId'] === data.id)).toBe(true);
    expect(eventsOf('user.created').length).toBe(usersBefore);
    const record = svc.emulator.rt.store.get(
      'sessions',
      [...svc.emulator.rt.store.ofTenant('guests', ACME_TENANT_ID)].find((g) => g.id === data.id)!.sessionId,
    )!;
    expect(record).toMatchObject({ method: 'guest', userId: data.user.id, endedAt: null });
    expect(JSON.stringify(record)).not.toContain(data.session.token);

    const got = await svc.request('GET', `/guests/${data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: data.id, status: 'active', userId: data.user.id });
  });

  it('is 404 for an unknown id and for another tenant', async () => {
    const { body } = await createGuestOn(svc);
    expect((await svc.request('GET', '/guests/gst_doesNotExist0000000')).status).toBe(404);
    const other = await svc.request('GET', `/guests/${body.data.id}`, { key: GLOBEX_KEY });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
  });

  it('answers 410 once the guest TTL passes on the emulator clock, for the record and its token', async () => {
    await svc.request('PATCH', '/tenant', { body: { settings: { guestTtl: '2h' } } });
    try {
      const { body } = await createGuestOn(svc);
      expect((await svc.request('GET', '/mfa/status', { headers: bearer(body.data.session.token) })).status).toBe(200);
      svc.emulator.rt.clock.advance(2 * HOUR + 1_000);
      const got = await svc.request('GET', `/guests/${body.data.id}`);
      expect(got.status).toBe(410);
      expect(got.body.code).toBe('session_expired');
      const use = await svc.request('GET', '/mfa/status', { headers: bearer(body.data.session.token) });
      expect(use.status).toBe(410);
      expect(use.body.code).toBe('session_expired');
      const convert = await svc.request('POST', `/guests/${body.data.id}/convert`, { body: { email: 'late@example.com' } });
      expect(convert.status).toBe(410);
    } finally {
      await svc.request('PATCH', '/tenant', { body: { settings: { guestTtl: '24h' } } });
    }
  });

  it('ends a guest on DELETE, emits session.revoked, and answers 410 afterwards', async () => {
    const { body } = await createGuestOn(svc);
    const id = body.data.id;
    const deleted = await svc.request('DELETE', `/guests/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('ended');
    expect(eventsOf('session.revoked').some((event) => event.data['sessionId'] === id)).toBe(true);
    for (const [method, path, payload] of [
      ['GET', `/guests/${id}`, undefined],
      ['DELETE', `/guests/${id}`, undefined],
      ['POST', `/guests/${id}/convert`, { email: 'after-delete@example.com' }],
    ] as const) {
      const res = await svc.request(method, path, payload === undefined ? {} : { body: payload });
      expect(res.status, `${method} ${path}`).toBe(410);
    }
    const use = await svc.request('GET', '/mfa/status', { headers: bearer(body.data.session.token) });
    expect(use.status).toBe(410);
  });

  it('converts a guest into a basic user keeping its id and party', async () => {
    const { body } = await createGuestOn(svc);
    const guest = body.data;
    // Read first, so that the views answered (and kept as JSON text) before the convert are those of the guest.
    expect((await svc.request('GET', `/users/${guest.user.id}`)).body.data).toMatchObject({ trustLevel: 'guest', email: null });
    const listed = async () => (await svc.request('GET', '/users?page_size=100')).body.data.find((u: { id: string }) => u.id === guest.user.id);
    expect(await listed()).toMatchObject({ trustLevel: 'guest', email: null });
    const converted = await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'New.Person@Example.com', name: 'New Person' } });
    expect(converted.status).toBe(200);
    expect(converted.headers.get('cache-control')).toBe('no-store');
    const { user, session } = converted.body.data;
    expect(user).toMatchObject({ id: guest.user.id, partyId: guest.user.partyId, email: 'New.Person@Example.com', name: 'New Person', trustLevel: 'basic' });
    expect(session.token).not.toBe(guest.session.token);
    expect(converted.body.data.guest.status).toBe('converted');

    const types = [...svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID)].filter((event) => event.data['userId'] === user.id).map((event) => event.type);
    expect(types).toEqual(['guest.created', 'guest.converted', 'user.created']);
    const announced = eventsOf('user.created').find((event) => event.data['userId'] === user.id)!;
    expect(announced.data).toEqual({ userId: user.id, email: 'New.Person@Example.com', partyId: guest.user.partyId });

    const sessions = svc.emulator.rt.store.ofTenant('sessions', ACME_TENANT_ID).filter((s) => s.userId === user.id);
    expect(sessions.map((s) => s.method).sort()).toEqual(['convert', 'guest']);
    expect((await svc.request('GET', '/mfa/status', { headers: bearer(session.token) })).status).toBe(200);
    expect((await svc.request('GET', '/mfa/status', { headers: bearer(guest.session.token) })).status).toBe(410);
    expect((await svc.request('GET', `/users/${user.id}`)).body.data).toEqual(user);
    expect(await listed()).toEqual(user);
  });

  it('answers 410 session_expired naming the status for every call on a converted guest session', async () => {
    const { body } = await createGuestOn(svc);
    const guest = body.data;
    expect((await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'converted.once@example.com' } })).status).toBe(200);
    for (const [method, path, payload] of [
      ['GET', `/guests/${guest.id}`, undefined],
      ['DELETE', `/guests/${guest.id}`, undefined],
      ['POST', `/guests/${guest.id}/convert`, { email: 'converted.twice@example.com' }],
    ] as const) {
      const res = await svc.request(method, path, payload === undefined ? {} : { body: payload });
      expect(res.status, `${method} ${path}`).toBe(410);
      expect(res.body.code).toBe('session_expired');
      expect(res.body.details).toEqual([expect.objectContaining({ status: 'converted', userId: guest.user.id })]);
    }
  });

  it('names the status ended or expired in the 410 of a deleted or timed-out guest session', async () => {
    const ended = (await createGuestOn(svc)).body.data;
    await svc.request('DELETE', `/guests/${ended.id}`);
    expect((await svc.request('GET', `/guests/${ended.id}`)).body.details).toEqual([expect.objectContaining({ status: 'ended' })]);
    const expired = (await createGuestOn(svc)).body.data;
    svc.emulator.rt.clock.advance(Date.parse(expired.expiresAt) - svc.emulator.rt.clock.nowMs() + 1_000);
    const details = (await svc.request('GET', `/guests/${expired.id}`)).body.details;
    expect(details).toEqual([
      expect.objectContaining({ status: 'expired', expiresAt: expired.expiresAt, emulatorNow: expect.any(String), realNow: expect.any(String) }),
    ]);
    // The clock runs on between the answer and this read: the emulator's time it names is the clock's, to the millisecond or so.
    expect(Math.abs(Date.parse(details[0].emulatorNow) - svc.emulator.rt.clock.nowMs())).toBeLessThan(1_000);
  });

  it('refuses to convert into an email that is taken (case-insensitive), and checks the body', async () => {
    const { body } = await createGuestOn(svc);
    const taken = await svc.request('POST', `/guests/${body.data.id}/convert`, { body: { email: 'BOB.chen1@acme.test' } });
    expect(taken.status).toBe(409);
    expect(taken.body.details[0].path).toBe('email');
    const bad = await svc.request('POST', `/guests/${body.data.id}/convert`, { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    expect((await svc.request('GET', `/guests/${body.data.id}`)).body.data.status).toBe('active');
  });

  it.each([
    [{}, 'olderThan'],
    [{ olderThan: 'soon' }, 'olderThan'],
    [{ olderThan: 12 }, 'olderThan'],
  ])('cleanup rejects %j with validation_error', async (payload, path) => {
    const res = await svc.request('POST', '/guests/cleanup', { body: payload });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe(path);
  });
});

describe('guest cleanup', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  it('cleanup ends only active guest sessions older than olderThan and answers the count', async () => {
    const old = [await createGuestOn(svc), await createGuestOn(svc), await createGuestOn(svc)].map((res) => res.body.data);
    await svc.request('DELETE', `/guests/${old[2].id}`);
    svc.emulator.rt.clock.advance(3 * HOUR);
    const fresh = (await createGuestOn(svc)).body.data;

    const first = await svc.request('POST', '/guests/cleanup', { body: { olderThan: '2h' } });
    expect(first.status).toBe(200);
    // The two old ones still active, and the fixture's, opened at the start.
    expect(first.body.data.expired).toBe(3);
    expect((await svc.request('GET', '/guests/gst_acme0000000000000001')).status).toBe(410);
    for (const guest of old) expect((await svc.request('GET', `/guests/${guest.id}`)).status).toBe(410);
    expect((await svc.request('GET', `/guests/${fresh.id}`)).body.data.status).toBe('active');
    expect((await svc.request('POST', '/guests/cleanup', { body: { olderThan: '2h' } })).body.data.expired).toBe(0);
    expect((await svc.request('POST', '/guests/cleanup', { body: { olderThan: '0s' } })).body.data.expired).toBe(1);
    expect((await svc.request('GET', `/guests/${fresh.id}`)).status).toBe(410);
  });
});
