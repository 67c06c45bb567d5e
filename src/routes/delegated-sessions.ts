/**
 * /v1/delegated-sessions: create (MFA guard), get and revoke act for the user's session (D4);
 * execute and query act for the delegate, with the delegated session's own token (D15).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../middleware/context.js';
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import { delegatedSessionsOperations } from '../operations/delegated-sessions.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
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

/** Checks the delegate's token against the path's session before the body is read (401/410 first). */
function delegate(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    authenticateDelegate(rt, c.get('tenant').id, c.req.param('id') ?? '', c.req.header('authorization'));
    return next();
  };
}

export function delegatedSessionsRoutes(rt: Runtime) {
  return newRouter()
    .openapi({ ...delegatedSessionsOperations.createDelegatedSession, middleware: [userSession(rt), requireFreshMfa(rt)] as const }, async (c) => {
      const { session, token } = await createDelegatedSession(rt, c.get('user'), c.req.valid('json'));
      return c.json({ data: { ...delegatedSessionView(rt, session), token } }, 201, NO_STORE);
    })
    .openapi({ ...delegatedSessionsOperations.getDelegatedSession, middleware: [userSession(rt)] as const }, (c) =>
      c.json({ data: delegatedSessionView(rt, getDelegatedSession(rt, c.get('user'), c.req.valid('param').id)) }, 200),
    )
    .openapi({ ...delegatedSessionsOperations.revokeDelegatedSession, middleware: [userSession(rt)] as const }, async (c) =>
      c.json({ data: delegatedSessionView(rt, await revokeDelegatedSession(rt, c.get('user'), c.req.valid('param').id)) }, 200),
    )
    .openapi({ ...delegatedSessionsOperations.executeTransaction, middleware: [delegate(rt)] as const }, async (c) => {
      const tx = await executeCommand(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json').command);
      return c.json({ data: transactionView(tx) }, 200);
    })
    .openapi({ ...delegatedSessionsOperations.queryContracts, middleware: [delegate(rt)] as const }, async (c) =>
      c.json(await queryContracts(rt, c.get('tenant').id, c.req.valid('param').id, c.req.valid('json')), 200),
    );
}
