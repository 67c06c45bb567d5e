/** /v1/tenant: the tenant the API key acts for; patch its name and settings. */
import { tenantOperations } from '../operations/tenant.js';
import type { Runtime } from '../runtime.js';
import { tenantView, updateTenant } from '../services/tenant.js';
import { newRouter } from './router.js';

export function tenantRoutes(rt: Runtime) {
  return newRouter()
    .openapi(tenantOperations.getTenant, (c) => c.json({ data: tenantView(c.get('tenant')) }, 200))
    .openapi(tenantOperations.updateTenant, async (c) => c.json({ data: tenantView(await updateTenant(rt, c.get('tenant').id, c.req.valid('json'))) }, 200));
}
