/** The operations of routes/webhooks.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { Deleted } from '../schemas/apps.js';
import { envelope, errorResponses, idParam, jsonBody, optionalJsonBody, jsonResponse, list, paramExample } from '../schemas/common.js';
import { WEBHOOK_EXAMPLES as EXAMPLES } from './examples.js';
import { CreateWebhookBody, Delivery, DeliveryListQuery, TestEventBody, UpdateWebhookBody, Webhook, WebhookWithSecret } from '../schemas/webhooks.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Webhooks'];
const security = API_KEY_SECURITY;
const params = idParam(EXAMPLES.id);

export const webhooksOperations = {
  listWebhooks: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listWebhooks',
    tags,
    security,
    summary: 'List webhooks',
    responses: { 200: jsonResponse(list(Webhook), 'The webhooks, newest first, without secrets', EXAMPLES.list) },
  }),
  createWebhook: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createWebhook',
    tags,
    security,
    summary: 'Create webhook',
    request: jsonBody(CreateWebhookBody, EXAMPLES.createBody),
    responses: { 201: jsonResponse(envelope(WebhookWithSecret), 'The webhook and its signing secret (shown once)', { data: EXAMPLES.created }) },
  }),
  updateWebhook: createRoute({
    method: 'patch',
    path: '/{id}',
    operationId: 'updateWebhook',
    tags,
    security,
    summary: 'Update webhook',
    request: { params, ...optionalJsonBody(UpdateWebhookBody, EXAMPLES.updateBody) },
    responses: {
      200: jsonResponse(envelope(WebhookWithSecret.partial({ secret: true })), 'The webhook; with a new secret when rotated', { data: EXAMPLES.updated }),
      ...errorResponses(404),
    },
  }),
  deleteWebhook: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'deleteWebhook',
    tags,
    security,
    summary: 'Delete webhook',
    request: { params },
    responses: { 200: jsonResponse(envelope(Deleted), 'The webhook and its deliveries are gone', { data: EXAMPLES.deleted }), ...errorResponses(404) },
  }),
  sendTestEvent: createRoute({
    method: 'post',
    path: '/{id}/test',
    operationId: 'sendTestEvent',
    tags,
    security,
    summary: 'Send a test event',
    request: { params, ...optionalJsonBody(TestEventBody, EXAMPLES.testBody) },
    responses: { 200: jsonResponse(envelope(Delivery), 'The delivery after its first attempt', { data: EXAMPLES.delivery }), ...errorResponses(404) },
  }),
  listDeliveries: createRoute({
    method: 'get',
    path: '/{id}/deliveries',
    operationId: 'listDeliveries',
    tags,
    security,
    summary: 'List deliveries',
    request: {
      params: idParam(EXAMPLES.deliveriesId),
      query: DeliveryListQuery.extend({ status: paramExample(DeliveryListQuery.shape.status, 'status', 'query', EXAMPLES.deliveriesQuery.status) }),
    },
    responses: { 200: jsonResponse(list(Delivery), 'Deliveries newest first, each with its attempts', EXAMPLES.deliveries), ...errorResponses(404) },
  }),
};
