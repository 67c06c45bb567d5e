/**
 * The MFA guard (D5): on routes that act for a user (after userSession), a user with
 * MFA enabled must have verified a code recently (the session is MFA-fresh), else 403
 * mfa_required. Applied to key-share retrieve, delete and recover, delegated-session create,
 * and DELETE /mfa.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { isMfaEnabled, isMfaFresh } from '../services/mfa.js';
import type { AppEnv } from './context.js';

export function requireFreshMfa(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isMfaEnabled(rt, c.get('user')) && !isMfaFresh(rt, c.get('session'))) {
      throw new ApiError('mfa_required', 'This action needs a fresh MFA verification: POST /mfa/challenge, then POST /mfa/verify', [
        { message: 'verify a TOTP or recovery code first', challenge: '/v1/mfa/challenge', verify: '/v1/mfa/verify' },
      ]);
    }
    return next();
  };
}
