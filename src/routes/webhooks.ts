/** /v1/webhooks: register, list, patch, delete, send a test event, list deliveries. */
import { webhooksOperations } from '../operations/webhooks.js';
import type { Runtime } from '../runtime.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTestEvent, updateWebhook } from '../services/webhooks.js';
import { newRouter } from './router.js';

export function webhooksRoutes(rt: Runtime) {
  return newRouter()
    .openapi(webhooksOperations.listWebhooks, (c) => c.json({ data: listWebhooks(rt, c.get('tenant').id) }, 200))
    .openapi(webhooksOperations.createWebhook, async (c) => {
      c.header('cache-control', 'no-store');
      return c.json({ data: await createWebhook(rt, c.get('tenant').id, c.req.valid('json')) }, 201);
    })
    .openapi(webhooksOperations.updateWebhook, async (c) => {
      c.header('cache-control', 'no-store');
      return c.json({ data: await updateWebhook(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json')) }, 200);
    })
    .openapi(webhooksOperations.deleteWebhook, async (c) => {
      const { id } = c.req.valid('param');
      await deleteWebhook(rt, c.get('tenant').id, id);
      return c.json({ data: { id, deleted: true as const } }, 200);
    })
    .openapi(webhooksOperations.sendTestEvent, async (c) =>
      c.json({ data: await sendTestEvent(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json').type) }, 200),
    )
    .openapi(webhooksOperations.listDeliveries, (c) =>
      c.json({ data: listDeliveries(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('query').status) }, 200),
    );
}
