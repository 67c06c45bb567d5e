/**
 * The store's contract (store.ts), as tests every backend must pass: reads and their indexes,
 * writes that are kept once they settle (a reopen finds them), a write that throws leaves
 * nothing, a reset, and the rate-limit buckets. src/store/store-contract.test.ts runs it against the
 * file store and against PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import type { AppRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface Backend {
  /** A store on a fresh, empty place (a new data dir, a new database). */
  fresh(): Promise<{ store: Store; isNew: boolean; place: string }>;
  /** Opens the place again, as the next process would. */
  reopen(place: string): Promise<{ store: Store; isNew: boolean }>;
}

let counter = 0;
export function appRecord(overrides: Partial<AppRecord> = {}): AppRecord {
  counter += 1;
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, counter % 60, counter)).toISOString();
  return {
    id: `app_contract${process.pid}x${counter}`,
    tenantId: 'ten_contract',
    name: `app ${counter}`,
    description: null,
    allowedOrigins: [],
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function storeContract(name: string, backend: Backend): void {
  describe(`the store contract: ${name}`, () => {
    it('opens a fresh place as new, and keeps what a settled write wrote across a reopen', async () => {
      const { store, isNew, place } = await backend.fresh();
      expect(isNew).toBe(true);
      const records = [appRecord(), appRecord(), appRecord({ tenantId: 'ten_other' })];
      for (const record of records) await store.write(() => store.insert('apps', record));
      await store.compact();
      await store.close();
      const { store: again, isNew: newAgain } = await backend.reopen(place);
      expect(newAgain).toBe(false);
      for (const record of records) expect(again.get('apps', record.id)).toEqual(record);
      expect(again.count('apps')).toBe(3);
      expect(again.count('apps', 'ten_contract')).toBe(2);
      await again.close();
    });

    it('reads by id, by owner, by unique key and newest first, and follows updates and removals', async () => {
      const { store, place } = await backend.fresh();
      const older = appRecord({ name: 'Older', createdAt: '2026-01-01T00:00:00.000Z' });
      const newer = appRecord({ name: 'Newer', createdAt: '2026-01-02T00:00:00.000Z' });
      await store.write(() => {
        store.insert('apps', older);
        store.insert('apps', newer);
      });
      await store.compact();
      expect(store.getOwned('apps', 'ten_contract', older.id)).toEqual(older);
      expect(store.getOwned('apps', 'ten_somebody', older.id)).toBeUndefined();
      expect(store.findByKey('apps', 'ten_contract:older')?.id).toBe(older.id);
      expect(store.newestFirst('apps', 'ten_contract').map((app) => app.id)).toEqual([newer.id, older.id]);
      const version = store.version('apps', 'ten_contract');
      const renamed = await store.write(() => store.update('apps', older.id, { name: 'Renamed' }));
      expect(renamed.name).toBe('Renamed');
      expect(store.version('apps', 'ten_contract')).toBeGreaterThan(version);
      expect(store.findByKey('apps', 'ten_contract:older')).toBeUndefined();
      expect(store.findByKey('apps', 'ten_contract:renamed')?.id).toBe(older.id);
      expect(await store.write(() => store.remove('apps', newer.id))).toBe(true);
      expect(await store.write(() => store.remove('apps', newer.id))).toBe(false);
      await store.close();
      const { store: again } = await backend.reopen(place);
      expect(again.get('apps', older.id)?.name).toBe('Renamed');
      expect(again.get('apps', newer.id)).toBeUndefined();
      expect(again.findByKey('apps', 'ten_contract:renamed')?.id).toBe(older.id);
      await again.close();
    });

    it('answers a write that throws with its error, and keeps nothing of it', async () => {
      const { store, place } = await backend.fresh();
      await store.compact();
      const kept = appRecord();
      const refused = store.write(() => {
        if (store.count('apps') >= 0) throw new ApiError('conflict', 'refused on purpose');
        store.insert('apps', appRecord());
      });
      const accepted = store.write(() => store.insert('apps', kept));
      await expect(refused).rejects.toMatchObject({ code: 'conflict' });
      await accepted;
      await store.close();
      const { store: again } = await backend.reopen(place);
      expect([...again.all('apps')].map((app) => app.id)).toEqual([kept.id]);
      await again.close();
    });

    it('keeps every one of many concurrent writes, and runs each onCommitted hook once it is kept', async () => {
      const { store, place } = await backend.fresh();
      await store.compact();
      const records = Array.from({ length: 60 }, () => appRecord());
      const committed: string[] = [];
      await Promise.all(
        records.map((record) =>
          store.write(() => {
            store.insert('apps', record);
            store.onCommitted(() => committed.push(record.id));
          }),
        ),
      );
      expect(committed.sort()).toEqual(records.map((record) => record.id).sort());
      await store.close();
      const { store: again } = await backend.reopen(place);
      expect(again.count('apps')).toBe(60);
      await again.close();
    });

    it('empties every collection on a reset, with what the same write inserts after it kept', async () => {
      const { store, place } = await backend.fresh();
      await store.compact();
      await store.write(() => store.insert('apps', appRecord()));
      const after = appRecord();
      await store.write(() => {
        store.clear();
        store.insert('apps', after);
      });
      expect(store.count('apps')).toBe(1);
      await store.close();
      const { store: again } = await backend.reopen(place);
      expect([...again.all('apps')].map((app) => app.id)).toEqual([after.id]);
      await again.close();
    });

    it('grants a burst of twice the rate, then refuses with the seconds to wait', async () => {
      const { store } = await backend.fresh();
      await store.compact();
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push(await store.takeToken('key_contract', 2));
      expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, false]);
      expect(decisions[0]).toMatchObject({ limit: 4, remaining: 3 });
      expect(decisions[4]!.resetSeconds).toBeGreaterThanOrEqual(1);
      await store.close();
    });
  });
}
