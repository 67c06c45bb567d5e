import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY, GLOBEX_TENANT_ID, startTestEmulator } from '../test-support/harness.js';
import { usageMeter, utcDate } from './usage.js';

const DAY = 86_400_000;

describe('API-call accounting', () => {
  it('counts authenticated calls per tenant and emulator day in memory, folds them into the store on close, and keeps them across a restart', async () => {
    const svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T23:59:00.000Z') } });
    const dataDir = svc.dataDir;
    try {
      const { rt } = svc.emulator;
      for (let i = 0; i < 3; i++) await svc.request('GET', '/apps');
      await svc.request('GET', '/tenant', { key: GLOBEX_KEY });
      await svc.request('GET', '/apps', { key: null }); // 401: not an API call of anyone
      await svc.request('GET', '/v1/healthz', { key: null });
      rt.clock.advance(DAY);
      await svc.request('GET', '/apps');
      await svc.request('GET', '/apps/app_missing'); // a 404 is still a call

      const meter = usageMeter(rt);
      expect(Object.fromEntries(meter.callsByDay(ACME_TENANT_ID, '2026-11-01', '2026-11-30'))).toEqual({ '2026-11-21': 3, '2026-11-22': 2 });
      expect(Object.fromEntries(meter.callsByDay(GLOBEX_TENANT_ID, '2026-11-01', '2026-11-30'))).toEqual({ '2026-11-21': 1 });
      expect(Object.fromEntries(meter.callsByDay(ACME_TENANT_ID, '2026-11-22', '2026-11-22'))).toEqual({ '2026-11-22': 2 });
      // Off the request path: nothing was written for them yet.
      expect(rt.store.count('usage')).toBe(0);
      await svc.stop();

      const again = await startTestEmulator({ dataDir, clock: { startTime: new Date('2026-11-22T12:00:00.000Z') } });
      try {
        const { store } = again.emulator.rt;
        expect(store.ofTenant('usage', ACME_TENANT_ID).map((r) => [r.date, r.apiCalls])).toEqual([
          ['2026-11-21', 3],
          ['2026-11-22', 2],
        ]);
        const meter2 = usageMeter(again.emulator.rt);
        await again.request('GET', '/apps');
        expect(meter2.callsByDay(ACME_TENANT_ID, '2026-11-22', '2026-11-22').get('2026-11-22')).toBe(3);
        // A flush adds to what is stored, never replaces it.
        await meter2.flush();
        expect(store.get('usage', `${ACME_TENANT_ID}:2026-11-22`)?.apiCalls).toBe(3);
        expect(store.get('usage', `${ACME_TENANT_ID}:2026-11-21`)?.apiCalls).toBe(3);
        expect(utcDate(Date.parse('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
      } finally {
        await again.stop();
      }
    } finally {
      await svc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('counts the calls made after a fold into new counters, so none is lost', async () => {
    const svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T12:00:00.000Z') } });
    try {
      const { rt } = svc.emulator;
      const meter = usageMeter(rt);
      const usage = (): number | undefined => rt.store.get('usage', `${ACME_TENANT_ID}:2026-11-21`)?.apiCalls;
      for (let i = 0; i < 2; i++) await svc.request('GET', '/apps');
      await meter.flush();
      expect(usage()).toBe(2);
      // The same tenant record again: its calls go to a counter of the new batch, not the folded one.
      for (let i = 0; i < 3; i++) await svc.request('GET', '/apps');
      expect(meter.callsByDay(ACME_TENANT_ID, '2026-11-21', '2026-11-21').get('2026-11-21')).toBe(5);
      await meter.flush();
      expect(usage()).toBe(5);
    } finally {
      await svc.close();
    }
  });

  it('drops the counts of a tenant that a reset replaced, keeping those made after it', async () => {
    // Midday on the emulator clock: `today` is read before the calls it counts, and a clock that
    // started at real time could pass midnight in between.
    const svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T12:00:00.000Z') } });
    try {
      const meter = usageMeter(svc.emulator.rt);
      const today = utcDate(svc.emulator.rt.clock.nowMs());
      for (let i = 0; i < 3; i++) await svc.request('GET', '/apps');
      expect(meter.callsByDay(ACME_TENANT_ID, today, today).get(today)).toBe(3);
      expect((await svc.request('POST', '/_emulator/reset', { key: null })).status).toBe(200);
      expect(meter.callsByDay(ACME_TENANT_ID, today, today).get(today)).toBeUndefined();
      await svc.request('GET', '/apps');
      await meter.flush();
      expect(svc.emulator.rt.store.get('usage', `${ACME_TENANT_ID}:${today}`)?.apiCalls).toBe(1);
    } finally {
      await svc.close();
    }
  });
});
