/** /v1/users: list (paginated, `trust_level`, `search`), create, get. /users/me/* comes with sessions. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, paginated } from '../schemas/common.js';
import { CreateUserBody, User, UserListQuery, type UserView } from '../schemas/users.js';
import { asDocument, pageText } from '../json-text.js';
import type { Page } from '../services/pagination.js';
import { createUser, getUser, listUserRecords, userEnvelopeText, userView, userViewText } from '../services/users.js';
import { API_KEY_SECURITY, newRouter, validationError } from './router.js';
import type { ApiTag } from '../operations/tags.js';

const tags: ApiTag[] = ['Users'];
const security = API_KEY_SECURITY;

export function usersRoutes(rt: Runtime) {
  const router = newRouter()
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
      (c) => c.json(asDocument<Page<UserView>>(pageText(listUserRecords(rt, c.get('tenant').id, c.req.valid('query')), userViewText)), 200),
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
    );
  // GET by id is the most frequent call: its one path parameter is checked here (checkedId), to
  // the same rules, rather than by the step .openapi() adds (router.ts): most ids need only a
  // compare of their length, where that step parses an object with zod.
  router.openAPIRegistry.registerPath(
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
  );
  return router.get('/:id', (c) => {
    const id = c.req.param('id');
    return c.json(asDocument<{ data: UserView }>(userEnvelopeText(getUser(rt, c.get('tenant').id, checkedId(id)))), 200);
  });
}

const { minLength: ID_MIN, maxLength: ID_MAX } = IdParam.shape.id;

/** `id` if IdParam takes it; otherwise the validation error IdParam gives, as the validator would answer it. */
export function checkedId(id: string): string {
  // IdParam checks only the length: most ids pass here without a parse.
  if (id.length >= (ID_MIN ?? 0) && id.length <= (ID_MAX ?? Infinity)) return id;
  const params = IdParam.safeParse({ id });
  if (!params.success) throw validationError(params.error.issues, 'param');
  return params.data.id;
}
