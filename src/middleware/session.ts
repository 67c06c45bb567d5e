/**
 * `Authorization: Bearer <session token>` (D4) for routes that act for a signed-in
 * user; runs after apiKeyAuth, so the token must belong to the key's tenant.
 */
import type { MiddlewareHandler } from 'hono';
import type { Runtime } from '../runtime.js';
import { authenticateSession } from '../services/sessions.js';
import type { AppEnv } from './context.js';

/** Sets `c.get('session')` and `c.get('user')`; 401 missing_session / invalid_session, 410 session_expired. */
export function userSession(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { session, user } = authenticateSession(rt, c.get('tenant').id, c.req.header('authorization'));
    c.set('session', session);
    c.set('user', user);
    return next();
  };
}
