/** `x-api-key` authentication (DESIGN D3): sets the tenant and key on the context. */
import type { MiddlewareHandler } from 'hono';
import type { Runtime } from '../runtime.js';
import { authenticate } from '../services/api-keys.js';
import type { AppEnv } from './context.js';

/** Paths under /v1 that need no key. */
export const KEY_EXEMPT_PATHS = new Set(['/v1/healthz', '/v1/readyz', '/v1/openapi.json']);

export function apiKeyAuth(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (KEY_EXEMPT_PATHS.has(c.req.path)) return next();
    const { tenant, key } = authenticate(rt, c.req.header('x-api-key'));
    c.set('tenant', tenant);
    c.set('apiKey', key);
    return next();
  };
}
