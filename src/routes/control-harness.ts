/**
 * The control plane's calls for test runs, mounted by control.ts behind its guard and declared
 * in operations/control-harness.ts: a tenant per test worker (`/tenants`), the request journal
 * (`/requests`), every delivery of a tenant (`/deliveries`, what a test waits on), sending
 * events again (`/redeliver`) and the store as a fixture (`/export`).
 */
import { harnessOperations as ops } from '../operations/control-harness.js';
import type { Runtime } from '../runtime.js';
import { controlDeliveryView } from '../services/control.js';
import { exportFixture } from '../services/export.js';
import { redeliver } from '../services/redeliver.js';
import { requestJournal } from '../services/request-journal.js';
import { createTestTenant, listTenants, removeTestTenant, resetTestTenant } from '../services/test-tenants.js';
import { newRouter } from './router.js';

export function harnessRoutes(rt: Runtime) {
  return newRouter()
    .openapi(ops.listTestTenants, (c) => c.json({ data: listTenants(rt) }, 200))
    .openapi(ops.createTestTenant, async (c) => c.json({ data: await createTestTenant(rt, c.req.valid('json')) }, 201))
    .openapi(ops.resetTestTenant, async (c) => c.json({ data: await resetTestTenant(rt, c.req.valid('param').id, c.req.valid('json').template) }, 200))
    .openapi(ops.removeTestTenant, async (c) => c.json({ data: await removeTestTenant(rt, c.req.valid('param').id) }, 200))
    .openapi(ops.listJournal, async (c) => c.json({ data: await requestJournal(rt).list(c.req.valid('query')) }, 200))
    .openapi(ops.clearJournal, (c) => c.json({ data: { cleared: requestJournal(rt).clear(c.req.valid('query').tenant) } }, 200))
    .openapi(ops.listAllDeliveries, (c) => {
      const filter = c.req.valid('query');
      const source = filter.tenant === undefined ? [...rt.store.all('deliveries')] : rt.store.ofTenant('deliveries', filter.tenant);
      const found = source.filter(
        (delivery) =>
          (filter.event_type === undefined || delivery.eventType === filter.event_type) &&
          (filter.event_id === undefined || delivery.eventId === filter.event_id) &&
          (filter.status === undefined || delivery.status === filter.status),
      );
      return c.json({ data: found.map(controlDeliveryView) }, 200);
    })
    .openapi(ops.redeliverEvents, async (c) => c.json({ data: await redeliver(rt, c.req.valid('json')) }, 200))
    .openapi(ops.exportFixture, async (c) => c.json({ data: await exportFixture(rt, c.req.valid('query').tenant) }, 200));
}
