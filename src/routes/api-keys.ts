/** /v1/api-keys: list (never the values), create (the value once), revoke. */
import { apiKeysOperations } from '../operations/api-keys.js';
import type { Runtime } from '../runtime.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { newRouter } from './router.js';

export function apiKeysRoutes(rt: Runtime) {
  return newRouter()
    .openapi(apiKeysOperations.listApiKeys, (c) => c.json({ data: listApiKeys(rt, c.get('tenant').id) }, 200))
    .openapi(apiKeysOperations.createApiKey, async (c) => {
      c.header('cache-control', 'no-store');
      return c.json({ data: await createApiKey(rt, c.get('tenant').id, c.req.valid('json').name) }, 201);
    })
    .openapi(apiKeysOperations.revokeApiKey, async (c) => c.json({ data: await revokeApiKey(rt, c.get('tenant').id, c.req.valid('param').id) }, 200));
}
