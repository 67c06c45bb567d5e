/** /v1/apps: list (paginated), create, get, update, delete. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { App, AppListQuery, CreateAppBody, Deleted, UpdateAppBody } from '../schemas/apps.js';
import { IdParam, envelope, errorResponses, jsonBody, optionalJsonBody, jsonResponse, paginated } from '../schemas/common.js';
import { appView, createTenantApp, deleteApp, getApp, listApps, updateApp } from '../services/apps.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Apps'];
const security = API_KEY_SECURITY;

export function appsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'listApps',
        tags,
        security,
        summary: 'List apps',
        request: { query: AppListQuery },
        responses: { 200: jsonResponse(paginated(App), 'A page of apps, newest first') },
      }),
      (c) => c.json(listApps(rt, c.get('tenant').id, c.req.valid('query')), 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createApp',
        tags,
        security,
        summary: 'Create app',
        request: jsonBody(CreateAppBody),
        responses: { 201: jsonResponse(envelope(App), 'The app'), ...errorResponses(409) },
      }),
      async (c) => c.json({ data: appView(await createTenantApp(rt, c.get('tenant').id, c.req.valid('json'))) }, 201),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}',
        operationId: 'getApp',
        tags,
        security,
        summary: 'Get app',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(App), 'The app'), ...errorResponses(404) },
      }),
      (c) => c.json({ data: appView(getApp(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200),
    )
    .openapi(
      createRoute({
        method: 'patch',
        path: '/{id}',
        operationId: 'updateApp',
        tags,
        security,
        summary: 'Update app',
        request: { params: IdParam, ...optionalJsonBody(UpdateAppBody) },
        responses: { 200: jsonResponse(envelope(App), 'The updated app'), ...errorResponses(404, 409) },
      }),
      async (c) => c.json({ data: appView(await updateApp(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json'))) }, 200),
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'deleteApp',
        tags,
        security,
        summary: 'Delete app',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(Deleted), 'The app is gone'), ...errorResponses(404) },
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        await deleteApp(rt, c.get('tenant').id, id);
        return c.json({ data: { id, deleted: true as const } }, 200);
      },
    );
}
