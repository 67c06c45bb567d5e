/**
 * CORS for /v1, so a front-end in a browser can call the emulator: preflights go to
 * Hono's own cors middleware, with the origins it allows decided here. A preflight is answered here, before the
 * API key is asked for (a browser never sends one on a preflight), and the headers a client
 * reads from an answer (the request id, the RateLimit headers, Retry-After) are exposed.
 *
 * Allowed by default: any origin on localhost or 127.0.0.1 (what a local dev server uses), plus
 * every origin a tenant configured (its passkey origins, its apps' allowedOrigins). A preflight
 * carries no key, so it cannot say which tenant it is for: the tenants' origins are taken together.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { CorsSetting, Runtime } from '../runtime.js';
import type { AppEnv } from './context.js';

/** The answer headers a browser's script may read. */
export const EXPOSED_HEADERS = ['x-request-id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An origin on localhost, 127.0.0.1 or [::1], any port, http or https. */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
}

/** Whether some tenant configured this origin, for its passkeys or one of its apps. */
function configuredByATenant(rt: Runtime, origin: string): boolean {
  for (const tenant of rt.store.all('tenants')) if (tenant.settings.webauthn.origins.includes(origin)) return true;
  for (const app of rt.store.all('apps')) if (app.allowedOrigins.includes(origin)) return true;
  return false;
}

/** The CORS middleware for `setting` (default: loopback origins and the tenants'), or null when it is 'off'. */
export function corsFor(rt: Runtime, setting: CorsSetting | undefined): MiddlewareHandler<AppEnv> | null {
  if (setting === 'off') return null;
  const listed = setting === undefined || setting === '*' ? null : new Set(setting);
  const allowed = (origin: string): boolean =>
    setting === '*' || (listed === null ? isLoopbackOrigin(origin) : listed.has(origin)) || configuredByATenant(rt, origin);
  const allowOrigin = (origin: string): string | null => (setting === '*' ? '*' : allowed(origin) ? origin : null);
  const preflight = cors({
    origin: allowOrigin,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
  const exposed = EXPOSED_HEADERS.join(',');
  return (c, next) => {
    // Only a browser sends Origin: other clients pass on at once.
    const origin = c.req.header('origin');
    if (origin === undefined) return next();
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    // The other requests get the same headers as Hono's cors would set, but through c.header() before
    // the answer is made: Hono's cors writes to c.res after it, which copies the Response into a new one.
    const allow = allowOrigin(origin);
    if (allow !== null) {
      c.header('access-control-allow-origin', allow);
      c.header('access-control-expose-headers', exposed);
    }
    if (setting !== '*') c.header('vary', 'Origin', { append: true });
    return next();
  };
}
