/** The operations of routes/users.ts, one createRoute() config each, for the router, the typed client and the OpenAPI document. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, idParam, jsonBody, jsonResponse, paginated, paramExample } from '../schemas/common.js';
import { USER_EXAMPLES as EXAMPLES } from './examples.js';
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
    request: {
      query: UserListQuery.extend({
        trust_level: paramExample(UserListQuery.shape.trust_level, 'trust_level', 'query', EXAMPLES.listQuery.trust_level),
        search: paramExample(UserListQuery.shape.search, 'search', 'query', EXAMPLES.listQuery.search),
      }),
    },
    responses: { 200: jsonResponse(paginated(User), 'A page of users, newest first', EXAMPLES.list) },
  }),
  createUser: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createUser',
    tags,
    security,
    summary: 'Create user',
    request: jsonBody(CreateUserBody, EXAMPLES.createBody),
    responses: { 201: jsonResponse(envelope(User), 'The user, with its party', { data: EXAMPLES.created }), ...errorResponses(409) },
  }),
  getUser: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getUser',
    tags,
    security,
    summary: 'Get user',
    request: { params: idParam(EXAMPLES.id) },
    responses: { 200: jsonResponse(envelope(User), 'The user', { data: EXAMPLES.user }), ...errorResponses(404) },
  }),
};
