/** /v1/guests: create, get, convert, delete (expire), cleanup (bulk expire). */
import { createRoute } from '@hono/zod-openapi';
import { parseDuration } from '../duration.js';
import { validationError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { IdParam, envelope, errorResponses, jsonBody, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { CleanupGuestsBody, CleanupResult, ConvertGuestBody, ConvertedGuest, CreateGuestBody, CreatedGuest, Guest } from '../schemas/guests.js';
import { cleanupGuests, convertGuest, createGuest, deleteGuest, getGuest, guestView } from '../services/guests.js';
import { userView } from '../services/users.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Guest sessions'];
const security = API_KEY_SECURITY;

export function guestsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createGuest',
        tags,
        security,
        summary: 'Create guest session',
        request: optionalJsonBody(CreateGuestBody),
        responses: { 201: jsonResponse(envelope(CreatedGuest), 'The guest session, its user and session token') },
      }),
      async (c) => {
        const { guest, user, session } = await createGuest(rt, c.get('tenant'));
        return c.json({ data: { ...guestView(rt, guest), user: userView(user), session } }, 201, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/cleanup',
        operationId: 'cleanupGuests',
        tags,
        security,
        summary: 'Bulk expire old guest sessions',
        request: jsonBody(CleanupGuestsBody),
        responses: { 200: jsonResponse(envelope(CleanupResult), 'How many guest sessions were ended') },
      }),
      async (c) => {
        const { olderThan } = c.req.valid('json');
        const ms = parseDuration(olderThan);
        if (ms === undefined) throw validationError('The request body is not valid', [{ path: 'olderThan', message: 'not a duration', in: 'body' }]);
        return c.json({ data: { expired: await cleanupGuests(rt, c.get('tenant').id, ms) } }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}',
        operationId: 'getGuest',
        tags,
        security,
        summary: 'Get guest session',
        request: { params: IdParam },
        description: 'An active guest session; 410 session_expired once it was converted, ended or expired (`details` names which).',
        responses: { 200: jsonResponse(envelope(Guest), 'The guest session'), ...errorResponses(404, 410) },
      }),
      (c) => c.json({ data: guestView(rt, getGuest(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/{id}/convert',
        operationId: 'convertGuest',
        tags,
        security,
        summary: 'Convert guest to user',
        request: { params: IdParam, ...jsonBody(ConvertGuestBody) },
        responses: { 200: jsonResponse(envelope(ConvertedGuest), 'The user it became, signed in'), ...errorResponses(404, 409, 410) },
      }),
      async (c) => {
        const { guest, user, session } = await convertGuest(rt, c.get('tenant'), c.req.valid('param').id, c.req.valid('json'));
        return c.json({ data: { user: userView(user), session, guest: guestView(rt, guest) } }, 200, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'expireGuest',
        tags,
        security,
        summary: 'Expire guest session',
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(Guest), 'The ended guest session'), ...errorResponses(404, 410) },
      }),
      async (c) => c.json({ data: guestView(rt, await deleteGuest(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200),
    );
}
