/**
 * /v1/delegated-sessions: create (MFA guard), get and revoke act for the user's session (D4);
 * execute and query act for the delegate, with the delegated session's own token (D15).
 */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../middleware/context.js';
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SESSION_SECURITY } from '../schemas/auth.js';
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
import {
  authenticateDelegate,
  createDelegatedSession,
  delegatedSessionView,
  executeCommand,
  getDelegatedSession,
  queryContracts,
  revokeDelegatedSession,
  transactionView,
} from '../services/delegated-sessions.js';
import { newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Delegated sessions'];
const security = SESSION_SECURITY;
const delegateSecurity = [{ ApiKeyAuth: [], DelegatedSessionAuth: [] }];

/** Checks the delegate's token against the path's session before the body is read (401/410 first). */
function delegate(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    authenticateDelegate(rt, c.get('tenant').id, c.req.param('id') ?? '', c.req.header('authorization'));
    return next();
  };
}

export function delegatedSessionsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createDelegatedSession',
        tags,
        security,
        summary: 'Create delegated session',
        middleware: [userSession(rt), requireFreshMfa(rt)] as const,
        request: jsonBody(CreateDelegatedSessionBody),
        responses: { 201: jsonResponse(envelope(CreatedDelegatedSession), 'The session and, only here, its token'), ...errorResponses(403, 404, 410) },
      }),
      async (c) => {
        const { session, token } = await createDelegatedSession(rt, c.get('user'), c.req.valid('json'));
        return c.json({ data: { ...delegatedSessionView(rt, session), token } }, 201, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}',
        operationId: 'getDelegatedSession',
        tags,
        security,
        summary: 'Get session details',
        middleware: [userSession(rt)] as const,
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(DelegatedSession), 'The session: status and usage'), ...errorResponses(404, 410) },
      }),
      (c) => c.json({ data: delegatedSessionView(rt, getDelegatedSession(rt, c.get('user'), c.req.valid('param').id)) }, 200),
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'revokeDelegatedSession',
        tags,
        security,
        summary: 'Revoke session',
        middleware: [userSession(rt)] as const,
        request: { params: IdParam },
        responses: { 200: jsonResponse(envelope(DelegatedSession), 'The revoked session'), ...errorResponses(404, 410) },
      }),
      async (c) => c.json({ data: delegatedSessionView(rt, await revokeDelegatedSession(rt, c.get('user'), c.req.valid('param').id)) }, 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/{id}/execute',
        operationId: 'executeTransaction',
        tags,
        security: delegateSecurity,
        summary: 'Execute transaction',
        middleware: [delegate(rt)] as const,
        request: { params: IdParam, ...jsonBody(ExecuteBody) },
        responses: { 200: jsonResponse(envelope(Transaction), 'The transaction, completed or failed'), ...errorResponses(403, 404, 410) },
      }),
      async (c) => {
        const tx = await executeCommand(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json').command);
        return c.json({ data: transactionView(tx) }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/{id}/query',
        operationId: 'queryContracts',
        tags,
        security: delegateSecurity,
        summary: 'Query contracts',
        middleware: [delegate(rt)] as const,
        request: { params: IdParam, ...optionalJsonBody(QueryBody) },
        responses: { 200: jsonResponse(paginated(Contract), 'Active contracts visible to the party, newest first'), ...errorResponses(403, 404, 410) },
      }),
      async (c) => c.json(await queryContracts(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json')), 200),
    );
}
