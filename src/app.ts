/**
 * createApp(runtime): mounts every area's router under /v1, the health probes at the root,
 * the error handler and the OpenAPI document. It never reads argv or env and never listens.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { API_BASE_PATH, baseApp, notFound, type AppOptions, type MethodsOfPath } from './app-base.js';
import { ownUrl } from './base-url.js';
import { apiKeyAuth } from './middleware/auth.js';
import { jsonBody } from './middleware/body.js';
import { injectFaults } from './middleware/faults.js';
import { rateLimit } from './middleware/rate-limit.js';
import type { AppEnv } from './middleware/context.js';
import { CONTROL_BASE_PATH, CONTROL_OPERATIONS, OPERATIONS } from './operations/index.js';
import { healthOperations } from './operations/health.js';
import { mount } from './operations/mount.js';
import { methodsOfPath } from './path-template.js';
import type { Runtime } from './runtime.js';
import { controlRoutes } from './routes/control.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { registerOpenApiDocument } from './routes/openapi.js';
import { analyticsRoutes } from './routes/analytics.js';
import { apiKeysRoutes } from './routes/api-keys.js';
import { appsRoutes } from './routes/apps.js';
import { billingRoutes } from './routes/billing.js';
import { customDomainsRoutes } from './routes/custom-domains.js';
import { delegatedSessionsRoutes } from './routes/delegated-sessions.js';
import { guestsRoutes } from './routes/guests.js';
import { mfaRoutes } from './routes/mfa.js';
import { mpcRoutes } from './routes/mpc.js';
import { passkeysRoutes } from './routes/passkeys.js';
import { telegramRoutes } from './routes/telegram.js';
import { tenantRoutes } from './routes/tenant.js';
import { usersRoutes } from './routes/users.js';
import { walletsRoutes } from './routes/wallets.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { providerPages } from './routes/provider.js';
import { passkeyDemoRoutes } from './routes/passkey-demo.js';

export { API_BASE_PATH, type AppOptions } from './app-base.js';

/**
 * Every route of /v1 but the OpenAPI document's own: health, then each area in the order of the
 * document. Chained, so that its type holds every route's input and answer.
 */
function apiRoutes(rt: Runtime, health: ReturnType<typeof healthRoutes>) {
  return new OpenAPIHono<AppEnv>()
    .route('/', health)
    .route('/apps', appsRoutes(rt))
    .route('/users/me/wallet', walletsRoutes(rt))
    .route('/users', usersRoutes(rt))
    .route('/api-keys', apiKeysRoutes(rt))
    .route('/tenant', tenantRoutes(rt))
    .route('/mfa', mfaRoutes(rt))
    .route('/mpc', mpcRoutes(rt))
    .route('/delegated-sessions', delegatedSessionsRoutes(rt))
    .route('/guests', guestsRoutes(rt))
    .route('/auth/telegram', telegramRoutes(rt))
    .route('/auth/passkey', passkeysRoutes(rt))
    .route('/webhooks', webhooksRoutes(rt))
    .route('/custom-domains', customDomainsRoutes(rt))
    .route('/analytics', analyticsRoutes(rt))
    .route('/billing', billingRoutes(rt));
}

/** The order `Allow` lists methods in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods each path the operations declare has, for the answer to a method it has not
 * (app-base.ts notFound): /v1's, the health probes' at the root too, and the control plane's. HEAD
 * comes with GET (Hono answers it with the GET route), and OPTIONS under /v1 when CORS is on.
 * The patterns are made at the first miss, not at every start.
 */
function declaredMethods(rt: Runtime): MethodsOfPath {
  let lookup: ((path: string) => string[]) | null = null;
  const cors = rt.options.cors !== 'off';
  return (path) => {
    lookup ??= methodsOfPath([
      ...Object.values(OPERATIONS).map(({ method, path }) => ({ method, path: `${API_BASE_PATH}${path}` })),
      ...Object.values(mount('', healthOperations)),
      ...Object.values(CONTROL_OPERATIONS).map(({ method, path }) => ({ method, path: `${CONTROL_BASE_PATH}${path}` })),
    ]);
    const methods = lookup(path);
    if (methods.length === 0) return methods;
    if (methods.includes('GET')) methods.push('HEAD');
    if (cors && path.startsWith(`${API_BASE_PATH}/`)) methods.push('OPTIONS');
    return methods.sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
  };
}

/** The app, served through its own fetch (a server, app.request(), or another Hono app's mount() or route()). */
export function createApp(rt: Runtime, options: AppOptions = {}) {
  const app = baseApp(rt, options);

  // Every /v1 route relative to /v1, as the control plane checks a fault's path against them (its middleware left out).
  const routeList = (): Promise<Array<{ method: string; path: string }>> => {
    const seen = new Map<string, { method: string; path: string }>();
    for (const { method, path } of app.routes) {
      if (method === 'ALL' || !path.startsWith(`${API_BASE_PATH}/`) || path.includes('*')) continue;
      seen.set(`${method} ${path}`, { method, path: path.slice(API_BASE_PATH.length) });
    }
    return Promise.resolve([...seen.values()]);
  };

  const health = healthRoutes(rt);
  app.route('/', health);

  app.route('/_emulator/ui/passkey', passkeyDemoRoutes(rt));

  // The dashboard takes HTML forms, so it is mounted before the control plane's JSON-only bodies.
  app.route('/_emulator/ui', dashboardRoutes(rt));
  app.use(`${CONTROL_BASE_PATH}/*`, jsonBody());
  app.route(CONTROL_BASE_PATH, controlRoutes(rt, { apiRoutes: routeList, version: options.version ?? '0.0.0' }));
  app.route('/_provider', providerPages(rt));

  app.use(`${API_BASE_PATH}/*`, injectFaults(rt, API_BASE_PATH), jsonBody(), apiKeyAuth(rt), rateLimit(rt));
  const described = apiRoutes(rt, health);
  const v1 = new OpenAPIHono<AppEnv>().route('/', described);
  registerOpenApiDocument(v1, {
    version: options.version ?? '0.0.0',
    basePath: API_BASE_PATH,
    routes: () => Promise.resolve(described),
    publicUrl: () => ownUrl(rt.options),
  });
  app.notFound(notFound(declaredMethods(rt)));
  return app.route(API_BASE_PATH, v1);
}
