/** The operations of routes/apps.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { App, AppListQuery, CreateAppBody, Deleted, UpdateAppBody } from '../schemas/apps.js';
import { IdParam, envelope, errorResponses, jsonBody, optionalJsonBody, jsonResponse, paginated } from '../schemas/common.js';
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
    request: { query: AppListQuery },
    responses: { 200: jsonResponse(paginated(App), 'A page of apps, newest first') },
  }),
  createApp: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createApp',
    tags,
    security,
    summary: 'Create app',
    request: jsonBody(CreateAppBody),
    responses: { 201: jsonResponse(envelope(App), 'The app'), ...errorResponses(409) },
  }),
  getApp: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getApp',
    tags,
    security,
    summary: 'Get app',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(App), 'The app'), ...errorResponses(404) },
  }),
  updateApp: createRoute({
    method: 'patch',
    path: '/{id}',
    operationId: 'updateApp',
    tags,
    security,
    summary: 'Update app',
    request: { params: IdParam, ...optionalJsonBody(UpdateAppBody) },
    responses: { 200: jsonResponse(envelope(App), 'The updated app'), ...errorResponses(404, 409) },
  }),
  deleteApp: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'deleteApp',
    tags,
    security,
    summary: 'Delete app',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(Deleted), 'The app is gone'), ...errorResponses(404) },
  }),
};
