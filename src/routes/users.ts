/** /v1/users: list (paginated, `trust_level`, `search`), create, get. /users/me/* comes with sessions. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, paginated } from '../schemas/common.js';
import { CreateUserBody, User, UserListQuery } from '../schemas/users.js';
import { jsonAnswer } from '../speed/json-answer.js';
import { JsonText } from '../speed/json-text.js';
import { createUser, getUser, listUserRecords, userView } from '../services/users.js';
import { userEnvelopeText, userViewText } from '../speed/user-json.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Users'];
const security = API_KEY_SECURITY;

export function usersRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'listUsers',
        tags,
        security,
        summary: 'List users',
        request: { query: UserListQuery },
        responses: { 200: jsonResponse(paginated(User), 'A page of users, newest first') },
      }),
      (c) => jsonAnswer(c, JsonText.page(listUserRecords(rt, c.get('tenant').id, c.req.valid('query')), userViewText), 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createUser',
        tags,
        security,
        summary: 'Create user',
        request: jsonBody(CreateUserBody),
        responses: { 201: jsonResponse(envelope(User), 'The user, with its party'), ...errorResponses(409) },
      }),
      async (c) => {
        const body = c.req.valid('json');
        const user = await createUser(rt, c.get('tenant').id, {
          email: body.email,
          name: body.name ?? null,
          trustLevel: body.trustLevel ?? 'basic',
        });
        return c.json({ data: userView(user) }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}',
        operationId: 'getUser',
        tags,
        security,
        summary: 'Get user',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(User), 'The user'), ...errorResponses(404) },
      }),
      (c) => jsonAnswer(c, userEnvelopeText(getUser(rt, c.get('tenant').id, c.req.valid('param').id)), 200),
    );
}
