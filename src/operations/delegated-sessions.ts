/** The operations of routes/delegated-sessions.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, idParam, jsonBody, jsonResponse, optionalJsonBody, paginated } from '../schemas/common.js';
import { DELEGATED_EXAMPLES as EXAMPLES } from './examples.js';
import {
  Contract,
  CreateDelegatedSessionBody,
  CreatedDelegatedSession,
  DelegatedSession,
  ExecuteBody,
  QueryBody,
  Transaction,
} from '../schemas/delegated-sessions.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Delegated sessions'];
const security = SESSION_SECURITY;
const delegateSecurity = [{ ApiKeyAuth: [], DelegatedSessionAuth: [] }];
const params = idParam(EXAMPLES.id);

export const delegatedSessionsOperations = {
  createDelegatedSession: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createDelegatedSession',
    tags,
    security,
    summary: 'Create delegated session',
    request: jsonBody(CreateDelegatedSessionBody, EXAMPLES.createBody),
    responses: {
      201: jsonResponse(envelope(CreatedDelegatedSession), 'The session and, only here, its token', { data: EXAMPLES.created }),
      ...errorResponses(403, 404, 410),
    },
  }),
  getDelegatedSession: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getDelegatedSession',
    tags,
    security,
    summary: 'Get session details',
    request: { params },
    responses: { 200: jsonResponse(envelope(DelegatedSession), 'The session: status and usage', { data: EXAMPLES.session }), ...errorResponses(404, 410) },
  }),
  revokeDelegatedSession: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'revokeDelegatedSession',
    tags,
    security,
    summary: 'Revoke session',
    request: { params },
    responses: { 200: jsonResponse(envelope(DelegatedSession), 'The revoked session', { data: EXAMPLES.revoked }), ...errorResponses(404, 410) },
  }),
  executeTransaction: createRoute({
    method: 'post',
    path: '/{id}/execute',
    operationId: 'executeTransaction',
    tags,
    security: delegateSecurity,
    summary: 'Execute transaction',
    request: { params, ...jsonBody(ExecuteBody, EXAMPLES.executeBody) },
    responses: {
      200: jsonResponse(envelope(Transaction), 'The transaction, completed or failed', { data: EXAMPLES.transaction }),
      ...errorResponses(403, 404, 410),
    },
  }),
  queryContracts: createRoute({
    method: 'post',
    path: '/{id}/query',
    operationId: 'queryContracts',
    tags,
    security: delegateSecurity,
    summary: 'Query contracts',
    request: { params, ...optionalJsonBody(QueryBody, EXAMPLES.queryBody) },
    responses: {
      200: jsonResponse(paginated(Contract), 'Active contracts visible to the party, newest first', EXAMPLES.contracts),
      ...errorResponses(403, 404, 410),
    },
  }),
};
