/** /v1/webhooks: register, list, patch, delete, send a test event, list deliveries. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { Deleted } from '../schemas/apps.js';
import { IdParam, envelope, errorResponses, jsonBody, optionalJsonBody, jsonResponse, list } from '../schemas/common.js';
import { CreateWebhookBody, Delivery, DeliveryListQuery, TestEventBody, UpdateWebhookBody, Webhook, WebhookWithSecret } from '../schemas/webhooks.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTestEvent, updateWebhook } from '../services/webhooks.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Webhooks'];
const security = API_KEY_SECURITY;

export function webhooksRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'listWebhooks',
        tags,
        security,
        summary: 'List webhooks',
        responses: { 200: jsonResponse(list(Webhook), 'The webhooks, newest first, without secrets') },
      }),
      (c) => c.json({ data: listWebhooks(rt, c.get('tenant').id) }, 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createWebhook',
        tags,
        security,
        summary: 'Create webhook',
        request: jsonBody(CreateWebhookBody),
        responses: { 201: jsonResponse(envelope(WebhookWithSecret), 'The webhook and its signing secret (shown once)') },
      }),
      async (c) => {
        c.header('cache-control', 'no-store');
        return c.json({ data: await createWebhook(rt, c.get('tenant').id, c.req.valid('json')) }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'patch',
        path: '/{id}',
        operationId: 'updateWebhook',
        tags,
        security,
        summary: 'Update webhook',
        request: { params: IdParam, ...optionalJsonBody(UpdateWebhookBody) },
        responses: {
          200: jsonResponse(envelope(WebhookWithSecret.partial({ secret: true })), 'The webhook; with a new secret when rotated'),
          ...errorResponses(404),
        },
      }),
      async (c) => {
        c.header('cache-control', 'no-store');
        return c.json({ data: await updateWebhook(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json')) }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'deleteWebhook',
        tags,
        security,
        summary: 'Delete webhook',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(Deleted), 'The webhook and its deliveries are gone'), ...errorResponses(404) },
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        await deleteWebhook(rt, c.get('tenant').id, id);
        return c.json({ data: { id, deleted: true as const } }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/{id}/test',
        operationId: 'sendTestEvent',
        tags,
        security,
        summary: 'Send a test event',
        request: { params: IdParam, body: { required: false, content: { 'application/json': { schema: TestEventBody } } } },
        responses: { 200: jsonResponse(envelope(Delivery), 'The delivery after its first attempt'), ...errorResponses(404) },
      }),
      async (c) => c.json({ data: await sendTestEvent(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json').type) }, 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}/deliveries',
        operationId: 'listDeliveries',
        tags,
        security,
        summary: 'List deliveries',
        request: { params: IdParam, query: DeliveryListQuery },
        responses: { 200: jsonResponse(list(Delivery), 'Deliveries newest first, each with its attempts'), ...errorResponses(404) },
      }),
      (c) => c.json({ data: listDeliveries(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('query').status) }, 200),
    );
}
