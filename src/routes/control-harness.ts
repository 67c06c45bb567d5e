/**
 * The control plane's calls for test runs (issue 35), mounted by control.ts behind its guard:
 * a tenant per test worker (`/tenants`), the request journal (`/requests`), every delivery of
 * a tenant (`/deliveries`, what a test waits on), sending events again (`/redeliver`) and the
 * store as a fixture (`/export`).
 */
import { Hono } from 'hono';
import { z, type ZodType } from 'zod';
import type { AppEnv } from '../middleware/context.js';
import type { Runtime } from '../runtime.js';
import { CreateTenantBody, RedeliverBody, RequestsQuery, ResetTenantBody } from '../schemas/harness.js';
import { DeliveryStatus } from '../schemas/webhooks.js';
import { controlDeliveryView } from '../services/control.js';
import { exportFixture } from '../services/export.js';
import { redeliver } from '../services/redeliver.js';
import { requestJournal } from '../services/request-journal.js';
import { createTestTenant, listTenants, removeTestTenant, resetTestTenant } from '../services/test-tenants.js';
import { validationError } from './router.js';

/** A JSON body checked against `schema`; no body at all reads as `{}`. */
async function body<T>(schema: ZodType<T>, raw: Promise<unknown>): Promise<T> {
  const result = schema.safeParse((await raw.catch(() => undefined)) ?? {});
  if (!result.success) throw validationError(result.error.issues, 'json');
  return result.data;
}

function query<T>(schema: ZodType<T>, raw: Record<string, string>): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error.issues, 'query');
  return result.data;
}

const DeliveriesQuery = z.object({
  tenant: z.string().max(100).optional(),
  event_type: z.string().max(100).optional(),
  event_id: z.string().max(100).optional(),
  status: DeliveryStatus.optional(),
});

const ExportQuery = z.object({ tenant: z.string().max(100).optional() });

export function harnessRoutes(rt: Runtime) {
  const app = new Hono<AppEnv>();

  app.get('/tenants', (c) => c.json({ data: listTenants(rt) }));

  app.post('/tenants', async (c) => c.json({ data: await createTestTenant(rt, await body(CreateTenantBody, c.req.json())) }, 201));

  app.post('/tenants/:id/reset', async (c) => {
    const { template } = await body(ResetTenantBody, c.req.json());
    return c.json({ data: await resetTestTenant(rt, c.req.param('id'), template) });
  });

  app.delete('/tenants/:id', async (c) => c.json({ data: await removeTestTenant(rt, c.req.param('id')) }));

  app.get('/requests', async (c) => c.json({ data: await requestJournal(rt).list(query(RequestsQuery, c.req.query())) }));

  app.delete('/requests', (c) => {
    const { tenant } = query(ExportQuery, c.req.query());
    return c.json({ data: { cleared: requestJournal(rt).clear(tenant) } });
  });

  app.get('/deliveries', (c) => {
    const filter = query(DeliveriesQuery, c.req.query());
    const source = filter.tenant === undefined ? [...rt.store.all('deliveries')] : rt.store.ofTenant('deliveries', filter.tenant);
    const found = source.filter(
      (delivery) =>
        (filter.event_type === undefined || delivery.eventType === filter.event_type) &&
        (filter.event_id === undefined || delivery.eventId === filter.event_id) &&
        (filter.status === undefined || delivery.status === filter.status),
    );
    return c.json({ data: found.map(controlDeliveryView) });
  });

  app.post('/redeliver', async (c) => c.json({ data: await redeliver(rt, await body(RedeliverBody, c.req.json())) }));

  app.get('/export', async (c) => c.json({ data: await exportFixture(rt, query(ExportQuery, c.req.query()).tenant) }));

  return app;
}
