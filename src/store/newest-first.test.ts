/**
 * The newest-first order a list pages through (D7) stays exactly a fresh sort of the tenant's
 * records through any mix of inserts (newest, older, same instant), updates, removals and
 * reads, however the store keeps it up to date in between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppRecord } from './records.js';
import { FileStore } from './file-store.js';

const TENANTS = ['ten_a', 'ten_b'];

type Step =
  | { kind: 'insert'; tenant: number; minute: number }
  | { kind: 'update'; pick: number; name: string; minute: number | null }
  | { kind: 'remove'; pick: number }
  | { kind: 'read'; tenant: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('insert' as const), tenant: fc.nat(1), minute: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), name: fc.string(), minute: fc.option(fc.nat(20)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), tenant: fc.nat(1) }) },
);

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

function expectedOrder(records: AppRecord[], tenantId: string): string[] {
  return records
    .filter((record) => record.tenantId === tenantId)
    .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1))
    .map((record) => record.id);
}

describe('newest-first order', () => {
  it('is always what sorting the tenant records afresh gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const { store } = await FileStore.open({ inMemory: true });
        let serial = 0;
        // Reads first, so that later steps change an order already built.
        for (const tenantId of TENANTS) store.newestFirst('apps', tenantId);
        for (const s of steps) {
          const live = [...store.all('apps')];
          if (s.kind === 'insert') {
            serial += 1;
            const id = `app_${String(serial).padStart(3, '0')}`;
            const record: AppRecord = {
              id,
              tenantId: TENANTS[s.tenant]!,
              name: id,
              description: null,
              allowedOrigins: [],
              createdAt: at(s.minute),
              updatedAt: at(s.minute),
            };
            await store.write(() => store.insert('apps', record));
          } else if (s.kind === 'update' && live.length > 0) {
            const target = live[s.pick % live.length]!;
            await store.write(() => store.update('apps', target.id, { name: s.name, ...(s.minute === null ? {} : { createdAt: at(s.minute) }) }));
          } else if (s.kind === 'remove' && live.length > 0) {
            await store.write(() => store.remove('apps', live[s.pick % live.length]!.id));
          } else if (s.kind === 'read') {
            const tenantId = TENANTS[s.tenant]!;
            expect(store.newestFirst('apps', tenantId).map((r) => r.id)).toEqual(expectedOrder([...store.all('apps')], tenantId));
          }
        }
        for (const tenantId of TENANTS) {
          expect(store.newestFirst('apps', tenantId).map((r) => r.id)).toEqual(expectedOrder([...store.all('apps')], tenantId));
          expect(store.newestFirst('apps', tenantId).map((r) => r.name)).toEqual(
            expectedOrder([...store.all('apps')], tenantId).map((id) => store.get('apps', id)!.name),
          );
        }
        await store.close();
      }),
      { numRuns: 200 },
    );
  });
});
