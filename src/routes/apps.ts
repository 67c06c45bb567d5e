/** /v1/apps: list (paginated), create, get, update, delete. */
import { appsOperations } from '../operations/apps.js';
import type { Runtime } from '../runtime.js';
import { appView, createTenantApp, deleteApp, getApp, listApps, updateApp } from '../services/apps.js';
import { newRouter } from './router.js';

export function appsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(appsOperations.listApps, (c) => c.json(listApps(rt, c.get('tenant').id, c.req.valid('query')), 200))
    .openapi(appsOperations.createApp, async (c) => c.json({ data: appView(await createTenantApp(rt, c.get('tenant').id, c.req.valid('json'))) }, 201))
    .openapi(appsOperations.getApp, (c) => c.json({ data: appView(getApp(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200))
    .openapi(appsOperations.updateApp, async (c) =>
      c.json({ data: appView(await updateApp(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json'))) }, 200),
    )
    .openapi(appsOperations.deleteApp, async (c) => {
      const { id } = c.req.valid('param');
      await deleteApp(rt, c.get('tenant').id, id);
      return c.json({ data: { id, deleted: true as const } }, 200);
    });
}
