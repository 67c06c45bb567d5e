/**
 * /v1/users over real HTTP: the paginated list (D7) on the 50 seeded users, creation with
 * its party (D13) and `user.created` event (D8), and every error status.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { combine } from 'shamir-secret-sharing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { openShares } from '../services/wallets.js';
import { expectError } from '../test-support/expect-error.js';

const JSON_UTF8 = 'application/json; charset=utf-8';
/** Acme's seeded users per trust level (fixtures/default.json). */
const ACME_USERS = { guest: 13, basic: 12, verified: 12, trusted: 13 } as const;
const ACME_TOTAL = 50;

interface UserView {
  id: string;
  email: string | null;
  name: string | null;
  trustLevel: string;
  partyId: string;
  createdAt: string;
}

/** Newest first, then id descending (D7). */
function isNewestFirst(users: UserView[]): boolean {
  return users.every((user, i) => {
    const next = users[i + 1];
    if (!next) return true;
    return user.createdAt > next.createdAt || (user.createdAt === next.createdAt && user.id > next.id);
  });
}

describe('/v1/users', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    // A fixed emulator time after every fixture date, so created users are the newest.
    svc = await startInProcess({ clock: { startTime: new Date('2026-12-01T00:00:00.000Z') } });
  });
  afterAll(() => svc.close());

  describe('list (seeded tenant, 50 users)', () => {
    it.each([
      // [query, page, pageSize, items on the page, hasMore]
      ['', 1, 20, 20, true],
      ['?page=2', 2, 20, 20, true],
      ['?page=3', 3, 20, 10, false],
      ['?page=4', 4, 20, 0, false],
      ['?page=1000', 1000, 20, 0, false],
      ['?page=2&page_size=5', 2, 5, 5, true],
      ['?page=10&page_size=5', 10, 5, 5, false],
      ['?page=11&page_size=5', 11, 5, 0, false],
      ['?page_size=50', 1, 50, 50, false],
      ['?page_size=49', 1, 49, 49, true],
      ['?page=2&page_size=49', 2, 49, 1, false],
      ['?page_size=100', 1, 100, 50, false],
      ['?page_size=1', 1, 1, 1, true],
      ['?page=50&page_size=1', 50, 1, 1, false],
    ])('GET /users%s → page %i of size %i holds %i, hasMore %s', async (query, page, pageSize, count, hasMore) => {
      const res = await svc.request('GET', `/users${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(JSON_UTF8);
      expect(res.body).toEqual({ data: expect.any(Array), total: ACME_TOTAL, page, pageSize, hasMore });
      expect(res.body.data).toHaveLength(count);
      expect(hasMore).toBe(page * pageSize < ACME_TOTAL);
    });

    it('pages tile the whole list, newest first, with no repeats', async () => {
      const all = (await svc.request('GET', '/users?page_size=100')).body.data as UserView[];
      expect(isNewestFirst(all)).toBe(true);
      const tiled: UserView[] = [];
      for (let page = 1; page <= 7; page++) tiled.push(...(await svc.request('GET', `/users?page=${page}&page_size=8`)).body.data);
      expect(tiled.map((u) => u.id)).toEqual(all.map((u) => u.id));
      // The fixture's dates come back as given.
      expect(all.at(-1)!.createdAt).toBe('2026-09-21T09:00:00.000Z');
      expect(all[0]!.createdAt).toBe('2026-11-19T14:00:00.000Z');
    });

    it.each(Object.entries(ACME_USERS))('trust_level=%s filters to %i users; total and hasMore follow the filter', async (level, count) => {
      const res = await svc.request('GET', `/users?trust_level=${level}&page_size=5`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: count, page: 1, pageSize: 5, hasMore: 5 < count });
      for (const user of res.body.data) expect(user.trustLevel).toBe(level);
      const last = await svc.request('GET', `/users?trust_level=${level}&page=${Math.ceil(count / 5)}&page_size=5`);
      expect(last.body.data).toHaveLength(count - 5 * (Math.ceil(count / 5) - 1));
      expect(last.body.hasMore).toBe(false);
    });

    it.each([
      // [search, how many match, what each match must contain in email or name]
      ['bob.chen1@acme.test', 1, 'bob.chen1@acme.test'],
      ['BOB CHEN', 1, 'bob chen'],
      ['müller', 3, 'müller'],
      ['MÜLLER', 3, 'müller'],
      ['grace müller', 1, 'grace müller'],
      ['@acme.test', 37, '@acme.test'],
      ['no-such-person', 0, ''],
    ])('search=%s matches %i by email or name, case-insensitively', async (search, count, needle) => {
      const res = await svc.request('GET', `/users?search=${encodeURIComponent(search)}&page_size=100`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(count);
      for (const user of res.body.data as UserView[]) {
        expect(`${user.email ?? ''} ${user.name ?? ''}`.toLowerCase()).toContain(needle);
      }
    });

    it('combines search and trust_level', async () => {
      const all = (await svc.request('GET', '/users?search=acme&page_size=100')).body.data as UserView[];
      const verified = await svc.request('GET', '/users?search=acme&trust_level=verified&page_size=100');
      expect(verified.body.total).toBe(all.filter((u) => u.trustLevel === 'verified').length);
      expect(verified.body.total).toBeGreaterThan(0);
    });

    it.each([
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page_size=abc', 'page_size'],
      ['page_size=-1', 'page_size'],
      ['page_size=1.5', 'page_size'],
      ['page_size=1e2', 'page_size'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['trust_level=admin', 'trust_level'],
      ['trust_level=BASIC', 'trust_level'],
      ['page=0&page_size=0', ['page', 'page_size']],
    ])('%s is 400 validation_error', async (query, paths) => {
      const res = await svc.request('GET', `/users?${query}`);
      expectError(res, 400, 'validation_error', Array.isArray(paths) ? paths : [paths]);
    });
  });

  describe('create and get', () => {
    it('creates a user (201): D15 fields, default trust level basic, a D13 party id, and gets it back', async () => {
      const res = await svc.request('POST', '/users', { body: { email: 'Zoe.Park@Example.com', name: 'Zoe Park', role: 'admin' } });
      expect(res.status).toBe(201);
      const user = res.body.data as UserView;
      expect(user).toEqual({
        id: expect.stringMatching(/^usr_[0-9A-Za-z]{20}$/),
        email: 'Zoe.Park@Example.com',
        name: 'Zoe Park',
        trustLevel: 'basic',
        partyId: expect.stringMatching(/^Zoe-Park::1220[0-9a-f]{64}$/),
        createdAt: expect.stringMatching(/^2026-12-01T00:00:\d{2}\.\d{3}Z$/),
        updatedAt: user.createdAt,
      });
      expect(await svc.request('GET', `/users/${user.id}`)).toMatchObject({ status: 200, body: { data: user } });
      // The newest user leads the list.
      expect((await svc.request('GET', '/users?page_size=1')).body.data[0].id).toBe(user.id);
      expect((await svc.request('GET', '/users?page_size=1')).body.total).toBe(ACME_TOTAL + 1);
    });

    it.each(['basic', 'verified', 'trusted'])('creates a %s user when asked', async (trustLevel) => {
      const res = await svc.request('POST', '/users', { body: { email: `level-${trustLevel}@example.com`, trustLevel } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ trustLevel, name: null });
    });

    it("makes the party id from the wallet's Ed25519 key as D13 says, and the key shares hold that key", async () => {
      const res = await svc.request('POST', '/users', { body: { email: 'party.check@example.com' } });
      const user = res.body.data as UserView;
      const store = svc.emulator.rt.store;
      const record = store.get('users', user.id)!;
      const wallet = store.get('wallets', record.walletId)!;
      expect(wallet).toMatchObject({ userId: user.id, tenantId: ACME_TENANT_ID, claimedAt: null });
      // The party is the user's; the wallet record does not repeat it.
      expect(wallet).not.toHaveProperty('partyId');

      const publicKey = Buffer.from(wallet.publicKey, 'hex');
      expect(publicKey).toHaveLength(32);
      const purpose = Buffer.alloc(4);
      purpose.writeUInt32BE(12);
      const expected = createHash('sha256')
        .update(Buffer.concat([purpose, publicKey]))
        .digest('hex');
      expect(user.partyId).toBe(`party-check::1220${expected}`);

      // Any two of the three shares rebuild a seed whose signatures the stored public key verifies.
      // The three shares are kept sealed together as one value, never in clear.
      expect(wallet).toHaveProperty('shares', expect.any(String));
      const opened = openShares(svc.emulator.rt.sealer, wallet);
      const shares = [opened.server, ...opened.pending].map((share) => new Uint8Array(share));
      expect(shares).toHaveLength(3);
      for (const share of shares) {
        expect(share).toHaveLength(33);
        for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(JSON.stringify(wallet)).not.toContain(Buffer.from(share).toString(encoding));
      }
      const seed = Buffer.from(await combine([shares[0]!, shares[2]!]));
      expect(seed).toHaveLength(32);
      const privateKey = createPrivateKey({
        key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: publicKey.toString('base64url') },
        format: 'jwk',
      });
      const publicKeyObject = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' });
      const message = Buffer.from('party check');
      expect(verify(null, message, publicKeyObject, sign(null, message, privateKey))).toBe(true);
      // The private key is not stored whole anywhere in the record.
      expect(JSON.stringify(wallet)).not.toContain(seed.toString('hex'));
      expect(JSON.stringify(wallet)).not.toContain(seed.toString('base64'));
    });

    it("records user.created with the user's id, email and partyId", async () => {
      const res = await svc.request('POST', '/users', { body: { email: 'evented@example.com', name: 'Ev' } });
      const user = res.body.data as UserView;
      const events = [...svc.emulator.rt.store.all('events')].filter((e) => e.type === 'user.created' && e.data['userId'] === user.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        tenantId: ACME_TENANT_ID,
        api_version: '2026-11-01',
        created_at: expect.stringMatching(/^2026-12-01T/),
        data: { userId: user.id, email: 'evented@example.com', partyId: user.partyId },
      });
      // Recorded in the write that stored the user, a moment after its keys were made.
      expect(events[0]!.created_at >= user.createdAt).toBe(true);
    });

    it.each([
      ['no email', { name: 'x' }, ['email']],
      ['an email without @', { email: 'not-an-email' }, ['email']],
      ['an empty email', { email: '' }, ['email']],
      ['a number as email', { email: 7 }, ['email']],
      ['an empty name', { email: 'a@example.com', name: '' }, ['name']],
      ['trust level guest (guests come from POST /guests)', { email: 'a@example.com', trustLevel: 'guest' }, ['trustLevel']],
      ['an unknown trust level', { email: 'a@example.com', trustLevel: 'admin' }, ['trustLevel']],
      ['three bad fields', { email: 'x', name: 5, trustLevel: 1 }, ['email', 'name', 'trustLevel']],
    ])('POST /users with %s is 400 validation_error', async (_label, body, paths) => {
      const before = (await svc.request('GET', '/users?page_size=1')).body.total;
      expectError(await svc.request('POST', '/users', { body }), 400, 'validation_error', paths);
      expect((await svc.request('GET', '/users?page_size=1')).body.total).toBe(before);
    });

    it.each([
      ['the same email', 'bob.chen1@acme.test'],
      ['the email in upper case', 'BOB.CHEN1@ACME.TEST'],
      ['the email in mixed case with spaces', '  Bob.Chen1@Acme.Test '],
    ])('POST /users with %s as a seeded user is 409 conflict', async (_label, email) => {
      expectError(await svc.request('POST', '/users', { body: { email } }), 409, 'conflict', ['email']);
    });

    it('lets another tenant use the same email (uniqueness is per tenant)', async () => {
      const res = await svc.request('POST', '/users', { key: GLOBEX_KEY, body: { email: 'bob.chen1@acme.test' } });
      expect(res.status).toBe(201);
    });

    it('answers one 201 and the rest 409 when the same email is sent 10 times at once', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => svc.request('POST', '/users', { body: { email: i % 2 ? 'race@example.com' : 'RACE@example.com' } })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
      expect((await svc.request('GET', '/users?search=race@example.com')).body.total).toBe(1);
    });

    it.each(['usr_doesNotExist000000000', 'nonsense', 'wal_x'])('GET /users/%s is 404 not_found', async (id) => {
      expectError(await svc.request('GET', `/users/${id}`), 404, 'not_found');
    });

    it('checks the id of GET /users/{id} as IdParam does: up to 200 characters, decoded; longer is 400 validation_error in the path', async () => {
      expectError(await svc.request('GET', `/users/${'u'.repeat(200)}`), 404, 'not_found');
      const tooLong = await svc.request('GET', `/users/${'u'.repeat(201)}`);
      expectError(tooLong, 400, 'validation_error', ['id']);
      expect(tooLong.body.details).toEqual([{ path: 'id', message: expect.stringContaining('200') as string, in: 'path' }]);
      const user = (await svc.request('GET', '/users?page_size=1')).body.data[0] as UserView;
      const encoded = user.id.replace('_', '%5F');
      expect(await svc.request('GET', `/users/${encoded}`)).toMatchObject({ status: 200, body: { data: user } });
    });
  });
});
