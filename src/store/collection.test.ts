/**
 * One collection on its own: its indexes (tenant, unique key, newest first) agree with its
 * records through add, replace and delete, records held as text are parsed once on first
 * read, and every change (and a clear) moves the tenant's version.
 */
import { describe, expect, it } from 'vitest';
import { Collection } from './collection.js';
import { RawRecord } from './snapshot.js';

type Row = { id: string; tenantId: string; createdAt: string; name: string };

const row = (id: string, tenantId: string, minute: number, name = id): Row => ({
  id,
  tenantId,
  createdAt: `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`,
  name,
});
const byName = (record: Row) => `${record.tenantId}:${record.name.toLowerCase()}`;

describe('Collection', () => {
  it('keeps the tenant, unique-key and newest-first indexes in step with add, replace and delete', () => {
    const apps = new Collection<Row>(byName);
    apps.add(row('a1', 'ten_a', 1, 'One'));
    apps.add(row('a2', 'ten_a', 3, 'Two'));
    apps.add(row('b1', 'ten_b', 2, 'One'));
    expect([...apps.ofTenant('ten_a')!.keys()]).toEqual(['a1', 'a2']);
    expect(apps.newestFirst('ten_a').map((r) => r.id)).toEqual(['a2', 'a1']);
    expect(apps.idOfKey('ten_b:one')).toBe('b1');

    const renamed = { ...apps.get('a1')!, name: 'Uno' };
    apps.replace(apps.get('a1')!, renamed);
    expect(apps.idOfKey('ten_a:one')).toBeUndefined();
    expect(apps.idOfKey('ten_a:uno')).toBe('a1');
    expect(apps.newestFirst('ten_a')).toEqual([apps.get('a2'), renamed]);

    apps.delete(apps.get('a2')!);
    expect(apps.has('a2')).toBe(false);
    expect(apps.newestFirst('ten_a').map((r) => r.id)).toEqual(['a1']);
    expect(apps.ofTenant('ten_a')!.size).toBe(1);
    expect(apps.size).toBe(2);
  });

  it('parses a record held as text once, on first read, and keeps it in its place', () => {
    const wallets = new Collection<Row>(undefined);
    const record = row('w1', 'ten_a', 1);
    wallets.load(new RawRecord('w1', JSON.stringify(record)));
    wallets.load(row('w2', 'ten_a', 2));
    expect(wallets.held()[0]).toBeInstanceOf(RawRecord);
    const first = wallets.get('w1');
    expect(first).toEqual(record);
    expect(wallets.get('w1')).toBe(first);
    expect([...wallets.values()].map((r) => r.id)).toEqual(['w1', 'w2']);

    const broken = new Collection<Row>(undefined);
    broken.load(new RawRecord('w3', '{"id":"w3",'));
    expect(() => broken.get('w3')).toThrow(/the record w3 in db.json is not valid JSON/);
    expect(() => broken.ofTenant('ten_a')).toThrow(/not valid JSON/);
  });

  it("moves a tenant's version on every change and on clear, never backwards", () => {
    const users = new Collection<Row>(undefined);
    const start = users.version('ten_a');
    users.add(row('u1', 'ten_a', 1));
    const added = users.version('ten_a');
    expect(added).toBeGreaterThan(start);
    users.add(row('u2', 'ten_b', 1));
    expect(users.version('ten_a')).toBe(added);
    users.clear();
    expect(users.version('ten_a')).toBeGreaterThan(added);
    expect(users.size).toBe(0);
    expect(users.newestFirst('ten_a')).toEqual([]);
  });
});
