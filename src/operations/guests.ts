/** The operations of routes/guests.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, idParam, jsonBody, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { GUEST_EXAMPLES as EXAMPLES } from './examples.js';
import { CleanupGuestsBody, CleanupResult, ConvertGuestBody, ConvertedGuest, CreateGuestBody, CreatedGuest, Guest } from '../schemas/guests.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Guest sessions'];
const security = API_KEY_SECURITY;
const params = idParam(EXAMPLES.id);

export const guestsOperations = {
  createGuest: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createGuest',
    tags,
    security,
    summary: 'Create guest session',
    request: optionalJsonBody(CreateGuestBody, EXAMPLES.createBody),
    responses: { 201: jsonResponse(envelope(CreatedGuest), 'The guest session, its user and session token', { data: EXAMPLES.created }) },
  }),
  cleanupGuests: createRoute({
    method: 'post',
    path: '/cleanup',
    operationId: 'cleanupGuests',
    tags,
    security,
    summary: 'Bulk expire old guest sessions',
    request: jsonBody(CleanupGuestsBody, EXAMPLES.cleanupBody),
    responses: { 200: jsonResponse(envelope(CleanupResult), 'How many guest sessions were ended', { data: EXAMPLES.cleaned }) },
  }),
  getGuest: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getGuest',
    tags,
    security,
    summary: 'Get guest session',
    request: { params: idParam(EXAMPLES.seededId) },
    description: 'An active guest session; 410 session_expired once it was converted, ended or expired (`details` names which).',
    responses: { 200: jsonResponse(envelope(Guest), 'The guest session', { data: EXAMPLES.guest }), ...errorResponses(404, 410) },
  }),
  convertGuest: createRoute({
    method: 'post',
    path: '/{id}/convert',
    operationId: 'convertGuest',
    tags,
    security,
    summary: 'Convert guest to user',
    request: { params, ...jsonBody(ConvertGuestBody, EXAMPLES.convertBody) },
    responses: { 200: jsonResponse(envelope(ConvertedGuest), 'The user it became, signed in', { data: EXAMPLES.converted }), ...errorResponses(404, 409, 410) },
  }),
  expireGuest: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'expireGuest',
    tags,
    security,
    summary: 'Expire guest session',
    request: { params },
    responses: { 200: jsonResponse(envelope(Guest), 'The ended guest session', { data: EXAMPLES.ended }), ...errorResponses(404, 410) },
  }),
};
