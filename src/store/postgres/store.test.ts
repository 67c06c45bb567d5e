/**
 * What the PostgreSQL store adds to the contract (store-contract.test.ts), with two stores on
 * one real database standing for two processes: one follows the other's writes, a newer schema
 * is refused, only one opener seeds, an attempt is claimed by one at a time and a dead claim
 * lapses, and faults, rate limits and the clock are shared.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailability, startPostgres, type TestPostgres } from '../../test-support/postgres.js';
import { appRecord } from '../../test-support/store-contract.js';
import type { DeliveryRecord, PasskeyRecord } from '../records.js';
import type { RemoteChange } from '../store.js';
import { startTcpProxy } from '../../test-support/tcp-proxy.js';
import { sessionLimits } from './connection.js';
import { tenantKey } from './locks.js';
import { LOCKS, MIGRATIONS, PG_SCHEMA_VERSION } from './schema.js';
import { openSharedClock } from './shared.js';
import { PostgresStore } from './store.js';

const postgres = postgresAvailability();

function delivery(id: string, nextAttemptAt: string | null): DeliveryRecord {
  return {
    id,
    tenantId: 'ten_pg',
    webhookId: 'whk_pg',
    eventId: 'evt_pg',
    eventType: 'user.created',
    status: 'pending',
    attempts: [],
    nextAttemptAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe.skipIf(!postgres.available)('the PostgreSQL store, two processes on one database', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  /** Two stores on one fresh database, the first having seeded it. */
  async function pair(): Promise<{ a: PostgresStore; b: PostgresStore; url: string; close(): Promise<void> }> {
    const url = await server.database();
    const { store: a } = await PostgresStore.open(url);
    await a.compact();
    const { store: b, isNew } = await PostgresStore.open(url);
    expect(isNew).toBe(false);
    return { a, b, url, close: async () => void (await Promise.all([a.close(), b.close()])) };
  }

  it('lets the second process read what the first wrote once it syncs, and tells its listeners', async () => {
    const { a, b, close } = await pair();
    const seen: RemoteChange[] = [];
    b.onRemoteChange((change) => seen.push(change));
    const record = appRecord();
    await a.write(() => a.insert('apps', record));
    await b.sync();
    expect(b.get('apps', record.id)).toEqual(record);
    expect(b.findByKey('apps', `${record.tenantId}:${record.name.toLowerCase()}`)?.id).toBe(record.id);
    await a.write(() => a.remove('apps', record.id));
    await b.sync();
    expect(b.get('apps', record.id)).toBeUndefined();
    expect(seen.map((change) => change.op)).toEqual(['put', 'del']);
    await close();
  });

  it('follows another process’s commit by its notification, with no request to make it look', async () => {
    const { a, b, close } = await pair();
    const heard = new Promise<RemoteChange>((resolve) => b.onRemoteChange(resolve));
    const record = appRecord();
    const started = performance.now();
    await a.write(() => a.insert('apps', record));
    // The poll runs once a second; a notification arrives within a round trip or two.
    const change = await Promise.race([heard, new Promise<null>((resolve) => setTimeout(() => resolve(null), 400))]);
    expect(change?.op).toBe('put');
    expect(b.get('apps', record.id)).toEqual(record);
    expect(performance.now() - started).toBeLessThan(400);
    await close();
  });

  it('catches up with a change log longer than one read, in order, to its last entry', async () => {
    const { a, b, url, close } = await pair();
    // 2,500 entries another process appended without a notification: only a catch-up finds them.
    const records = Array.from({ length: 2_500 }, () => appRecord());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `INSERT INTO svc_changes (origin, kind, body) SELECT 'proc_other', 'records', jsonb_build_array(jsonb_build_array('put', 'apps', r)) FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(r, n) ORDER BY n`,
      [JSON.stringify(records)],
    );
    await client.end();
    await b.sync();
    expect(records.filter((record) => b.get('apps', record.id) === undefined)).toEqual([]);
    // A write catches up inside its transaction as well, from where the other process stands.
    await a.write(() => a.insert('apps', appRecord()));
    expect(records.every((record) => a.get('apps', record.id) !== undefined)).toBe(true);
    await close();
  });

  it('answers 409 to the second of two processes inserting the same unique key, and takes it back in memory', async () => {
    const { a, b, close } = await pair();
    const first = appRecord({ name: 'Twin' });
    const second = appRecord({ name: 'Twin' });
    // b has not synced: its memory does not know of a's app, so only the database's constraint can refuse it.
    await a.write(() => a.insert('apps', first));
    const refused = b.write(() => {
      b.insert('apps', second);
    });
    // b's write catches up first, so its memory holds both for an instant; the constraint refuses the commit.
    await expect(refused).rejects.toMatchObject({ code: 'conflict' });
    expect(b.get('apps', second.id)).toBeUndefined();
    expect(b.get('apps', first.id)).toEqual(first);
    await close();
  });

  it('fails only the writes whose rows the database refuses; the others of their transactions commit', async () => {
    const { a, b, url, close } = await pair();
    const twin = appRecord({ name: 'Twin again' });
    await b.write(() => b.insert('apps', twin));
    // a has not synced, so only the database refuses its twin (at commit: the unique rule is
    // deferred); the text no store holds reaches a store only past the requests' check.
    const refused = {
      nul: appRecord({ name: 'nul \u0000 inside' }),
      high: appRecord({ name: 'high \ud800 alone' }),
      low: appRecord({ description: 'low \udc00 alone' }),
      twin: appRecord({ name: 'twin AGAIN' }),
      // Past what JSON.stringify can write: refused before anything is sent.
      deep: appRecord({ description: JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as string }),
    };
    const valid = Array.from({ length: 40 }, (_, index) => appRecord({ tenantId: index % 2 === 0 ? 'ten_contract' : 'ten_other', name: `kept ${index} 😀` }));
    // Fired together, they share transactions: one lane per tenant hash gathers what comes meanwhile.
    const writes = [
      ...valid.slice(0, 10),
      refused.nul,
      ...valid.slice(10, 20),
      refused.high,
      refused.twin,
      ...valid.slice(20, 30),
      refused.low,
      refused.deep,
      ...valid.slice(30),
    ];
    const settled = await Promise.allSettled(writes.map((record) => a.write(() => a.insert('apps', record))));
    const status = new Map(writes.map((record, index) => [record.id, settled[index]!]));
    for (const record of valid) expect(status.get(record.id)).toMatchObject({ status: 'fulfilled' });
    expect(status.get(refused.nul.id)).toMatchObject({ status: 'rejected', reason: { code: 'validation_error', details: [{ path: 'name' }] } });
    expect(status.get(refused.high.id)).toMatchObject({ status: 'rejected', reason: { code: 'validation_error', details: [{ path: 'name' }] } });
    expect(status.get(refused.low.id)).toMatchObject({ status: 'rejected', reason: { code: 'validation_error', details: [{ path: 'description' }] } });
    expect(status.get(refused.twin.id)).toMatchObject({ status: 'rejected', reason: { code: 'conflict' } });
    expect(status.get(refused.deep.id)).toMatchObject({ status: 'rejected', reason: { code: 'store_unavailable' } });
    // Taken back in memory, the refused ones alone; the process can still write.
    for (const record of Object.values(refused)) expect(a.get('apps', record.id)).toBeUndefined();
    for (const record of valid) expect(a.get('apps', record.id)).toEqual(record);
    expect(a.writable).toBe(true);
    // The other process reads every kept one, and none refused.
    await b.sync();
    for (const record of valid) expect(b.get('apps', record.id)).toEqual(record);
    for (const record of [refused.nul, refused.high, refused.low, refused.deep]) expect(b.get('apps', record.id)).toBeUndefined();
    expect(b.get('apps', twin.id)).toEqual(twin);
    // They did share transactions: the change log holds fewer of a's entries than writes.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const entries = Number((await client.query(`SELECT count(*) AS n FROM svc_changes WHERE origin = $1`, [a.origin])).rows[0].n);
    await client.end();
    expect(entries).toBeLessThan(valid.length);
    await close();
  });

  it('keeps a passkey whose credential id is longer than an index row holds, and keeps it unique', async () => {
    const { a, b, close } = await pair();
    // A credential id the schema takes (base64url, up to 64 KiB); random, so the index cannot compress it.
    const credentialId = randomBytes(6_000).toString('base64url');
    const passkey = (id: string): PasskeyRecord => ({
      id,
      tenantId: 'ten_contract',
      userId: 'usr_long',
      credentialId,
      publicKey: 'pk',
      userHandle: 'uh',
      counter: 0,
      transports: [],
      deviceType: 'singleDevice',
      backedUp: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: null,
    });
    await a.write(() => a.insert('passkeys', passkey('pky_long1')));
    await b.sync();
    expect(b.get('passkeys', 'pky_long1')?.credentialId).toBe(credentialId);
    // The same key again (memory does not check it; the services do): the database's rule, on its hash, refuses it.
    await expect(b.write(() => b.insert('passkeys', passkey('pky_long2')))).rejects.toMatchObject({ code: 'conflict' });
    expect(b.get('passkeys', 'pky_long2')).toBeUndefined();
    await close();
  });

  it('refuses a database written by a newer svc and leaves it as it was', async () => {
    const url = await server.database();
    const { store } = await PostgresStore.open(url);
    await store.compact();
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`UPDATE svc_meta SET value = '99' WHERE key = 'schema_version'`);
    await expect(PostgresStore.open(url)).rejects.toThrow(`newer svc (schema version 99, this one reads up to ${PG_SCHEMA_VERSION})`);
    const { rows } = await client.query<{ value: number }>(`SELECT value FROM svc_meta WHERE key = 'schema_version'`);
    expect(rows[0]!.value).toBe(99);
    await client.end();
  });

  it('takes a database of schema version 1 to the current one, a fault stored before kept as one every request meets', async () => {
    const url = await server.database();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE svc_meta (key text PRIMARY KEY, value jsonb NOT NULL)');
    for (const statement of MIGRATIONS[0]!) await client.query(statement);
    await client.query(`INSERT INTO svc_meta (key, value) VALUES ('schema_version', '1')`);
    await client.query(
      `INSERT INTO svc_faults (id, method, path, pattern, status, delay, delay_ms, count, remaining, created_at)
       VALUES ('flt_v1', NULL, '/users', '^/users$', 503, NULL, 0, 2, 2, '2026-01-01T00:00:00.000Z')`,
    );
    const { store } = await PostgresStore.open(url);
    try {
      expect(await store.sharedFaults!.list()).toEqual([expect.objectContaining({ id: 'flt_v1', tenant: null, remaining: 2 })]);
      expect(store.sharedFaults!.scoped).toBe(false);
      expect(await store.sharedFaults!.take('GET', '/users', 'ten_any')).toMatchObject({ id: 'flt_v1', remaining: 1 });
      const { rows } = await client.query<{ value: number }>(`SELECT value FROM svc_meta WHERE key = 'schema_version'`);
      expect(rows[0]!.value).toBe(PG_SCHEMA_VERSION);
    } finally {
      await store.close();
      await client.end();
    }
  });

  it('lets only the first of two processes opening a new database seed it; the other waits and finds it seeded', async () => {
    const url = await server.database();
    const first = await PostgresStore.open(url);
    expect(first.isNew).toBe(true);
    const second = PostgresStore.open(url);
    const record = appRecord();
    await first.store.write(() => first.store.insert('apps', record));
    await first.store.compact();
    const opened = await second;
    expect(opened.isNew).toBe(false);
    expect(opened.store.get('apps', record.id)).toEqual(record);
    await Promise.all([first.store.close(), opened.store.close()]);
  });

  it('gives an attempt to one process at a time; a claim lapses; a made attempt is not due again', async () => {
    const { a, b, close } = await pair();
    const now = '2026-01-01T00:00:00.000Z';
    await a.write(() => a.insert('deliveries', delivery('dlv_pg1', now)));
    expect(await a.claimAttempt('dlv_pg1', now, 60_000)).toEqual({ state: 'claimed' });
    const busy = await b.claimAttempt('dlv_pg1', now, 60_000);
    expect(busy.state).toBe('busy');
    expect(busy.state === 'busy' && busy.forMs).toBeGreaterThan(50_000);
    // The attempt is made and recorded: the next is a minute later, not due yet.
    await a.write(() => a.update('deliveries', 'dlv_pg1', { nextAttemptAt: '2026-01-01T00:01:00.000Z' }));
    expect(await b.claimAttempt('dlv_pg1', now, 60_000)).toEqual({ state: 'not-due', nextAttemptAt: '2026-01-01T00:01:00.000Z' });
    // A process that dies holding a claim: it lapses after its hold, and another takes it. The
    // hold is long enough that b surely asks within it, however loaded the machine (a 100 ms
    // hold could lapse between two round trips); b then waits out what it is told is left.
    const later = '2026-01-01T00:01:00.000Z';
    const hold = 2_000;
    expect(await a.claimAttempt('dlv_pg1', later, hold)).toEqual({ state: 'claimed' });
    const held = await b.claimAttempt('dlv_pg1', later, hold);
    expect(held.state).toBe('busy');
    const left = held.state === 'busy' ? held.forMs : hold;
    expect(left).toBeLessThanOrEqual(hold);
    await new Promise((resolve) => setTimeout(resolve, left + 50));
    expect(await b.claimAttempt('dlv_pg1', later, hold)).toEqual({ state: 'claimed' });
    // A process that finds it will not make the attempt lets go at once; only its own claim goes.
    await a.releaseAttempt('dlv_pg1');
    expect((await a.claimAttempt('dlv_pg1', later, 60_000)).state).toBe('busy');
    await b.releaseAttempt('dlv_pg1');
    expect(await a.claimAttempt('dlv_pg1', later, 60_000)).toEqual({ state: 'claimed' });
    await close();
  });

  it('counts requests against a fault across processes exactly, and shares the rate-limit buckets', async () => {
    const { a, b, close } = await pair();
    const fault = {
      id: 'flt_pg',
      method: 'GET',
      path: '/users',
      pattern: '^/users$',
      status: 503,
      delay: null,
      delayMs: 0,
      count: 5,
      remaining: 5,
      tenant: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await a.sharedFaults!.add(fault);
    await b.sync();
    expect(b.sharedFaults!.active).toBe(true);
    expect(b.sharedFaults!.scoped).toBe(false);
    const hits = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).sharedFaults!.take('GET', '/users', i % 3 === 0 ? null : 'ten_pg')),
    );
    expect(hits.filter((hit) => hit !== undefined)).toHaveLength(5);
    expect(await b.sharedFaults!.take('GET', '/apps', null)).toBeUndefined();

    // A fault that names a tenant: only that tenant's requests count against it, whichever process answers them.
    await b.sharedFaults!.add({ ...fault, id: 'flt_pg_scoped', count: 3, remaining: 3, tenant: 'ten_pg' });
    await a.sync();
    expect(a.sharedFaults!.scoped).toBe(true);
    const others = await Promise.all(
      [null, 'ten_other', null, 'ten_other'].map((tenant, i) => (i % 2 === 0 ? a : b).sharedFaults!.take('GET', '/users', tenant)),
    );
    expect(others).toEqual([undefined, undefined, undefined, undefined]);
    const own = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).sharedFaults!.take('GET', '/users', 'ten_pg')));
    expect(own.filter((hit) => hit !== undefined).map((hit) => hit.tenant)).toEqual(['ten_pg', 'ten_pg', 'ten_pg']);
    expect(await a.sharedFaults!.list()).toEqual([]);
    expect(await a.sharedFaults!.clear()).toBe(0);
    await b.sync();
    expect(b.sharedFaults!.active).toBe(false);
    expect(b.sharedFaults!.scoped).toBe(false);

    // Rate 2: a shared bucket holds 4, and two buckets would let all six through. The bucket
    // refills on real time, so a loaded machine's slow round trips may earn a token meanwhile:
    // allow what the elapsed time earned (none in a normal run, where the answer is exact).
    const started = performance.now();
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await (i % 2 === 0 ? a : b).takeToken('key_shared', 2));
    const earned = Math.floor(((performance.now() - started) / 1000) * 2);
    const allowed = decisions.map((decision) => decision.allowed);
    expect(allowed.slice(0, 4)).toEqual([true, true, true, true]);
    expect(allowed.filter(Boolean).length).toBeLessThanOrEqual(4 + earned);
    await close();
  });

  it('shares the clock: a move made by one process is the other’s once it syncs', async () => {
    const { a, b, close } = await pair();
    const clockA = await openSharedClock(a);
    const clockB = await openSharedClock(b);
    const before = clockB.nowMs();
    let replanned = 0;
    clockB.onChange(() => (replanned += 1));
    clockA.advance(86_400_000);
    await a.settled();
    await b.sync();
    expect(clockB.nowMs() - before).toBeGreaterThanOrEqual(86_400_000);
    expect(Math.abs(clockB.nowMs() - clockA.nowMs())).toBeLessThan(1_000);
    expect(replanned).toBeGreaterThanOrEqual(1);
    clockA.setSpeed(10);
    await a.settled();
    await b.sync();
    expect(clockB.speed).toBe(10);
    await close();
  });
});

describe.skipIf(!postgres.available)('the PostgreSQL store when the database or a peer fails', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it('holds the others at most the hold time when a process stalls inside a write, and refuses the stalled commit', async () => {
    const url = await server.database();
    const { store } = await PostgresStore.open(url, { holdMs: 1_000 });
    await store.compact();
    // A peer stopped between two statements of its write transaction, holding the write lock.
    const stalled = new pg.Client({ connectionString: url, ...sessionLimits(1_000, 'writer') });
    stalled.on('error', () => {});
    await stalled.connect();
    await stalled.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOCKS.write.join(', ')})`);
    const started = performance.now();
    await store.write(() => store.insert('apps', appRecord()));
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(500);
    expect(waited).toBeLessThan(2_500);
    await expect(stalled.query('COMMIT')).rejects.toThrow();
    await stalled.end().catch(() => {});
    await store.close();
  });

  it('lets writes of other tenants pass a process stalled inside a write of one tenant', async () => {
    const url = await server.database();
    const { store } = await PostgresStore.open(url, { holdMs: 1_500 });
    await store.compact();
    // A peer stopped inside a write of ten_stalled: it holds that tenant's lock and the shared side of the store-wide one.
    const stalled = new pg.Client({ connectionString: url, ...sessionLimits(1_500, 'writer') });
    stalled.on('error', () => {});
    await stalled.connect();
    await stalled.query(
      `BEGIN; SELECT pg_advisory_xact_lock_shared(${LOCKS.write.join(', ')}), pg_advisory_xact_lock(${0x5356_4302}, ${tenantKey('ten_stalled')})`,
    );
    let started = performance.now();
    await Promise.all(['ten_a', 'ten_b', 'ten_c'].map((tenantId) => store.write(() => store.insert('apps', appRecord({ tenantId })))));
    expect(performance.now() - started).toBeLessThan(750);
    started = performance.now();
    await store.write(() => store.insert('apps', appRecord({ tenantId: 'ten_stalled' })));
    expect(performance.now() - started).toBeGreaterThan(750);
    await stalled.end().catch(() => {});
    await store.close();
  });

  it('answers 503 while cut off, says why, takes back a clock move it could not store, and heals by itself', async () => {
    const url = await server.database();
    const proxy = await startTcpProxy(server.port);
    const { store } = await PostgresStore.open(url.replace(`:${server.port}/`, `:${proxy.port}/`), { holdMs: 500 });
    await store.compact();
    const clock = await openSharedClock(store);
    try {
      proxy.blackhole();
      proxy.cut();
      await expect(store.write(() => store.insert('apps', appRecord()))).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(store.writable).toBe(false);
      expect(store.unavailableReason).toMatch(/database cannot be written/);
      const before = clock.nowMs();
      clock.advance(86_400_000);
      await expect(clock.kept()).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(clock.nowMs() - before).toBeLessThan(60_000);

      proxy.heal();
      expect(await store.probe()).toBe(true);
      expect(store.writable).toBe(true);
      const record = appRecord();
      await store.write(() => store.insert('apps', record));
      clock.advance(86_400_000);
      await clock.kept();
      expect(clock.nowMs() - before).toBeGreaterThanOrEqual(86_400_000);
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const { rows } = await check.query<{ value: { emulatedMs: number } }>(`SELECT value FROM svc_meta WHERE key = 'clock'`);
      expect(rows[0]!.value.emulatedMs - before).toBeGreaterThanOrEqual(86_400_000);
      expect((await check.query('SELECT 1 FROM svc_apps WHERE id = $1', [record.id])).rowCount).toBe(1);
      await check.end();
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});

describe.skipIf(postgres.available)('the PostgreSQL store, two processes on one database', () => {
  it.skip(`skipped: ${postgres.reason}`, () => {});
});
