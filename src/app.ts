/**
 * createApp(runtime): mounts every area's router under /v1, the health probes at the root,
 * the error handler and the OpenAPI document. It never reads argv or env and never listens.
 *
 * Most areas of /v1 are loaded on their first request rather than at start: an area's routes,
 * with the zod schemas and services only it uses, were most of what a start evaluated (about
 * 110 ms of a 300 ms start at 10k users, measured by leaving them out). Until then the app
 * holds one middleware for the area's paths, right after the response headers and ahead of
 * every other handler; the first request there loads the area, adds its routes to the app, and
 * is answered by the app with them: its only trip through the app twice, the second keeping the
 * first's request id and answer (middleware/response.ts), the first having run nothing else. A
 * load that fails answers 500 in the error envelope, with the request id, and is tried again by
 * the next request. The middleware then passes every later request on. Health and users are
 * built with the app: the probes, and the calls every client makes first.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorHandler, Hono, Schema } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { apiKeyAuth } from './middleware/auth.js';
import { ChainRouter } from './middleware/chain-router.js';
import { droppedBody, jsonBody } from './middleware/body.js';
import { corsFor } from './middleware/cors.js';
import { injectFaults } from './middleware/faults.js';
import { journalRequests } from './middleware/journal.js';
import { rateLimit } from './middleware/rate-limit.js';
import { storeSync } from './middleware/store-sync.js';
import { answerByRunningAgain, responseHeaders } from './middleware/response.js';
import { SplitRouter } from './middleware/split-router.js';
import type { AppEnv } from './middleware/context.js';
import type { Runtime } from './runtime.js';
import { controlRoutes } from './routes/control.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { registerOpenApiDocument } from './routes/openapi.js';
import { usersRoutes } from './routes/users.js';
import { providerPages } from './routes/provider.js';
import { passkeyDemoRoutes } from './routes/passkey-demo.js';

export const API_BASE_PATH = '/v1';

export interface AppOptions {
  logger?: Logger;
  version?: string;
}

/** Turns anything thrown into the error envelope; never a stack trace (D6). */
function toApiError(error: unknown, logger: Logger, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 400) return new ApiError('invalid_json', error.message || 'The request body is not valid JSON');
    if (error.status === 413) return new ApiError('payload_too_large', 'The request body is larger than 1 MiB');
    if (error.status === 415) return new ApiError('invalid_json', 'Send the body as JSON with the header Content-Type: application/json');
  }
  logger.log('error', 'unhandled error', { requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new ApiError('internal_error', 'Something went wrong inside the emulator; the server log has the details');
}

/** One area's router (an OpenAPIHono, which some routes modules type as the Hono its last route answers). */
type AreaRouter = Hono<AppEnv, Schema, string>;
/** Builds one area's router; each routes module exports one. */
type AreaRoutes = (rt: Runtime) => AreaRouter;

/** An area of /v1: its routes built with the app, or loaded on its first request. */
type Area = { path: string; routes: AreaRoutes } | { path: string; load: () => Promise<AreaRoutes> };

/**
 * Every area of /v1 (beside health), in the order of the OpenAPI document. A route added when
 * its area loads comes after every route already there (split-router.ts); no two areas hold
 * a path that could match the same request, so the order they load in does not change an answer.
 */
const AREAS: readonly Area[] = [
  { path: '/apps', load: async () => (await import('./routes/apps.js')).appsRoutes },
  { path: '/users/me/wallet', load: async () => (await import('./routes/wallets.js')).walletsRoutes },
  { path: '/users', routes: usersRoutes },
  { path: '/api-keys', load: async () => (await import('./routes/api-keys.js')).apiKeysRoutes },
  { path: '/tenant', load: async () => (await import('./routes/tenant.js')).tenantRoutes },
  { path: '/mfa', load: async () => (await import('./routes/mfa.js')).mfaRoutes },
  { path: '/mpc', load: async () => (await import('./routes/mpc.js')).mpcRoutes },
  { path: '/delegated-sessions', load: async () => (await import('./routes/delegated-sessions.js')).delegatedSessionsRoutes },
  { path: '/guests', load: async () => (await import('./routes/guests.js')).guestsRoutes },
  { path: '/auth/telegram', load: async () => (await import('./routes/telegram.js')).telegramRoutes },
  { path: '/auth/passkey', load: async () => (await import('./routes/passkeys.js')).passkeysRoutes },
  { path: '/webhooks', load: async () => (await import('./routes/webhooks.js')).webhooksRoutes },
  { path: '/custom-domains', load: async () => (await import('./routes/custom-domains.js')).customDomainsRoutes },
  { path: '/analytics', load: async () => (await import('./routes/analytics.js')).analyticsRoutes },
  { path: '/billing', load: async () => (await import('./routes/billing.js')).billingRoutes },
];

/** Per app made by createApp(): loads every area not loaded yet (the OpenAPI document, tests that list the routes). */
const everyArea = new WeakMap<object, () => Promise<unknown>>();

/** Loads every area of an app made by createApp() that is not loaded yet, so that app.routes lists every route. */
export async function loadEveryArea<T extends object>(app: T): Promise<T> {
  await everyArea.get(app)?.();
  return app;
}

/**
 * The app is served through its own fetch (a server, app.request(), or another Hono app's
 * mount('/', app.fetch)). Another app's route() copies the routes the app holds at that
 * moment, so call loadEveryArea(app) first if it is mounted that way.
 */
export function createApp(rt: Runtime, options: AppOptions = {}): OpenAPIHono<AppEnv> {
  const logger = options.logger ?? silentLogger;
  const onError: ErrorHandler<AppEnv> = (error, c) => {
    const apiError = toApiError(error, logger, c.get('requestId') ?? '');
    return c.json(apiError.toBody(), apiError.status as 400, apiError.headers);
  };
  // One handler per request, synchronous while its steps are (middleware/chain-router.ts).
  const app = new OpenAPIHono<AppEnv>({ router: new ChainRouter(new SplitRouter(), onError) });

  // Each area's router, once built: at once for an area built with the app, on its first request for the others.
  const built = new Map<Area, Promise<AreaRouter>>();
  const routesOf = (area: Area): Promise<AreaRouter> => {
    let routes = built.get(area);
    if (routes === undefined && 'load' in area) {
      routes = area.load().then((make) => {
        const router = make(rt);
        app.route(`${API_BASE_PATH}${area.path}`, router);
        return router;
      });
      // A load that failed (a broken install) is tried again by the next request, not remembered.
      routes.catch(() => built.delete(area));
      built.set(area, routes);
    }
    return routes!;
  };
  app.use('*', responseHeaders(logger), journalRequests(rt));
  // Before the areas load and before the API key: a browser's preflight carries no key.
  const cors = corsFor(rt, rt.options.cors);
  if (cors !== null) app.use(`${API_BASE_PATH}/*`, cors);

  for (const area of AREAS) {
    if (!('load' in area)) continue;
    let loaded = false;
    // Not async: once the area is loaded, a request passes on without a promise of its own.
    app.use(`${API_BASE_PATH}${area.path}/*`, (c, next) =>
      loaded
        ? next()
        : routesOf(area).then(() => {
            loaded = true;
            return answerByRunningAgain(c, app.fetch);
          }),
    );
  }

  app.onError(onError);
  app.notFound((c) => {
    const error = new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), 404);
  });

  app.use('*', storeSync(rt), droppedBody());

  // Every /v1 route relative to /v1, as the control plane checks a fault's path against them (its middleware left out).
  const apiRoutes = async (): Promise<Array<{ method: string; path: string }>> => {
    const seen = new Map<string, { method: string; path: string }>();
    for (const { method, path } of (await loadEveryArea(app)).routes) {
      if (method === 'ALL' || !path.startsWith(`${API_BASE_PATH}/`) || path.includes('*')) continue;
      seen.set(`${method} ${path}`, { method, path: path.slice(API_BASE_PATH.length) });
    }
    return [...seen.values()];
  };

  const health = healthRoutes(rt);
  app.route('/', health);

  app.route('/_emulator/ui/passkey', passkeyDemoRoutes(rt));

  // The dashboard takes HTML forms, so it is mounted before the control plane's JSON-only bodies.
  app.route('/_emulator/ui', dashboardRoutes(rt));
  app.use('/_emulator/*', jsonBody());
  app.route('/_emulator', controlRoutes(rt, apiRoutes));
  app.route('/_provider', providerPages(rt));

  app.use(`${API_BASE_PATH}/*`, injectFaults(rt, API_BASE_PATH), jsonBody(), apiKeyAuth(rt), rateLimit(rt));
  const v1 = new OpenAPIHono<AppEnv>();
  v1.route('/', health);
  for (const area of AREAS) {
    if ('load' in area) continue;
    const router = area.routes(rt);
    built.set(area, Promise.resolve(router));
    v1.route(area.path, router);
  }

  const loadAll = (): Promise<AreaRouter[]> => Promise.all(AREAS.map(routesOf));
  // Every /v1 route, in the order of AREAS, as the OpenAPI document lists them.
  const everyRoute = async (): Promise<OpenAPIHono<AppEnv>> => {
    const routers = await loadAll();
    const all = new OpenAPIHono<AppEnv>();
    all.route('/', health);
    AREAS.forEach((area, i) => all.route(area.path, routers[i]!));
    return all;
  };
  everyArea.set(app, loadAll);
  registerOpenApiDocument(v1, { version: options.version ?? '0.0.0', basePath: API_BASE_PATH, routes: everyRoute });
  app.route(API_BASE_PATH, v1);
  return app;
}
