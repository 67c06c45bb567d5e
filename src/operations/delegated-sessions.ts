/** The operations of routes/delegated-sessions.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, optionalJsonBody, paginated } from '../schemas/common.js';
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

export const delegatedSessionsOperations = {
  createDelegatedSession: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createDelegatedSession',
    tags,
    security,
    summary: 'Create delegated session',
    request: jsonBody(CreateDelegatedSessionBody),
    responses: { 201: jsonResponse(envelope(CreatedDelegatedSession), 'The session and, only here, its token'), ...errorResponses(403, 404, 410) },
  }),
  getDelegatedSession: createRoute({
    method: 'get',
    path: '/{id}',
    operationId: 'getDelegatedSession',
    tags,
    security,
    summary: 'Get session details',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(DelegatedSession), 'The session: status and usage'), ...errorResponses(404, 410) },
  }),
  revokeDelegatedSession: createRoute({
    method: 'delete',
    path: '/{id}',
    operationId: 'revokeDelegatedSession',
    tags,
    security,
    summary: 'Revoke session',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(DelegatedSession), 'The revoked session'), ...errorResponses(404, 410) },
  }),
  executeTransaction: createRoute({
    method: 'post',
    path: '/{id}/execute',
    operationId: 'executeTransaction',
    tags,
    security: delegateSecurity,
    summary: 'Execute transaction',
    request: { params: IdParam, ...jsonBody(ExecuteBody) },
    responses: { 200: jsonResponse(envelope(Transaction), 'The transaction, completed or failed'), ...errorResponses(403, 404, 410) },
  }),
  queryContracts: createRoute({
    method: 'post',
    path: '/{id}/query',
    operationId: 'queryContracts',
    tags,
    security: delegateSecurity,
    summary: 'Query contracts',
    request: { params: IdParam, ...optionalJsonBody(QueryBody) },
    responses: { 200: jsonResponse(paginated(Contract), 'Active contracts visible to the party, newest first'), ...errorResponses(403, 404, 410) },
  }),
};
