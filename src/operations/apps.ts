/** The operations of routes/apps.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { App, AppListQuery, CreateAppBody, Deleted, UpdateAppBody } from '../schemas/apps.js';
import { envelope, errorResponses, idParam, jsonBody, optionalJsonBody, jsonResponse, paginated, paramExample } from '../schemas/common.js';
import { APP_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Apps'];
const security = API_KEY_SECURITY;

export const appsOperations = {
  listApps: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listApps',
    tags,
    security,
    summary: 'List apps',
    request: { query: AppListQuery.extend({ search: paramExample(AppListQuery.shape.search, 'search', 'query', EXAMPLES.listQuery.search) }) },
    responses: { 200: jsonResponse(paginated(App), 'A page of apps, newest first', EXAMPLES.list) },
  }),
  createApp: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createApp',
    tags,
    security,
    summary: 'Create app',
    request: jsonBody(CreateAppBody, EXAMPLES.createBody),
    responses: { 201: jsonResponse(envelope(App), 'The app', { data: EXAMPLES.created }), ...errorResponses(409) },
  }),
  getApp: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getApp',
    tags,
    security,
    summary: 'Get app',
    request: { params: idParam(EXAMPLES.id) },
    responses: { 200: jsonResponse(envelope(App), 'The app', { data: EXAMPLES.app }), ...errorResponses(404) },
  }),
  updateApp: createRoute({
    method: 'patch',
    path: '/{id}',
    operationId: 'updateApp',
    tags,
    security,
    summary: 'Update app',
    request: { params: idParam(EXAMPLES.id), ...optionalJsonBody(UpdateAppBody, EXAMPLES.updateBody) },
    responses: { 200: jsonResponse(envelope(App), 'The updated app', { data: EXAMPLES.updated }), ...errorResponses(404, 409) },
  }),
  deleteApp: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'deleteApp',
    tags,
    security,
    summary: 'Delete app',
    request: { params: idParam(EXAMPLES.deleteId) },
    responses: { 200: jsonResponse(envelope(Deleted), 'The app is gone', { data: EXAMPLES.deleted }), ...errorResponses(404) },
  }),
};
