/** The operations of routes/users.ts, one createRoute() config each, for the router, the typed client and the OpenAPI document. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, paginated } from '../schemas/common.js';
import { CreateUserBody, User, UserListQuery } from '../schemas/users.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Users'];
const security = API_KEY_SECURITY;

export const usersOperations = {
  listUsers: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listUsers',
    tags,
    security,
    summary: 'List users',
    request: { query: UserListQuery },
    responses: { 200: jsonResponse(paginated(User), 'A page of users, newest first') },
  }),
  createUser: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createUser',
    tags,
    security,
    summary: 'Create user',
    request: jsonBody(CreateUserBody),
    responses: { 201: jsonResponse(envelope(User), 'The user, with its party'), ...errorResponses(409) },
  }),
  getUser: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getUser',
    tags,
    security,
    summary: 'Get user',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(User), 'The user'), ...errorResponses(404) },
  }),
};
