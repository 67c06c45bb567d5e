/**
 * What every answer of the app goes through (the request id and log line, the Host check, the
 * control plane's cross-site check, the request journal, CORS, the error and not-found handlers,
 * the store's catch-up), and the app of the health probes
 * alone that `svc serve` answers with while the whole app is built (startup/deferred-app.ts).
 * createApp() (app.ts) builds on the same base, so a probe is answered alike by both.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors.js';
import { ChainRouter } from './routing/chain-router.js';
import { SplitRouter } from './routing/split-router.js';
import { silentLogger, type Logger } from './logger.js';
import { droppedBody } from './middleware/body.js';
import type { AppEnv } from './middleware/context.js';
import { corsFor } from './middleware/cors.js';
import { crossSiteGuard } from './middleware/cross-site.js';
import { hostCheck } from './middleware/host-check.js';
import { journalRequests } from './middleware/journal.js';
import { responseHeaders } from './middleware/response.js';
import { storeSync } from './middleware/store-sync.js';
import { healthRoutes } from './routes/health.js';
import type { Runtime } from './runtime.js';

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

/** The methods a request path has (upper case, in the order they are to be listed), or none when no route has it. */
export type MethodsOfPath = (path: string) => readonly string[];

/**
 * The answer to a request no route took: 405 `method_not_allowed` with `Allow` when its path has
 * routes of other methods (`methodsOf`), else 404 `not_found`. An OPTIONS that reaches it on a
 * path that lists OPTIONS is answered 204 with `Allow` (RFC 9110 §9.3.7): only a preflight is
 * answered before it, by CORS. Run only on a miss, so the look-up costs a routed request nothing.
 */
export function notFound(methodsOf: MethodsOfPath): NotFoundHandler<AppEnv> {
  return (c) => {
    const { method, path } = c.req;
    const methods = methodsOf(path);
    if (methods.length === 0) return c.json(new ApiError('not_found', `No route for ${method} ${path}`).toBody(), 404);
    const allow = methods.join(', ');
    if (method === 'OPTIONS' && methods.includes('OPTIONS')) return c.body(null, 204, { allow });
    const error = new ApiError('method_not_allowed', `${path} has no ${method}; it answers ${allow}`, [], { allow });
    return c.json(error.toBody(), 405, error.headers);
  };
}

/** The app's middleware and handlers that come before any route. */
export function baseApp(rt: Runtime, options: AppOptions = {}): OpenAPIHono<AppEnv> {
  const logger = options.logger ?? silentLogger;
  const onError: ErrorHandler<AppEnv> = (error, c) => {
    const apiError = toApiError(error, logger, c.get('requestId') ?? '');
    return c.json(apiError.toBody(), apiError.status as 400, apiError.headers);
  };
  // One handler per request, synchronous while its steps are (routing/chain-router.ts).
  const app = new OpenAPIHono<AppEnv>({ router: new ChainRouter(new SplitRouter(), onError) });

  // The Host check comes before anything of the app, right after the request id and log line, so a
  // request for a host name svc does not answer is refused (and logged) and reaches nothing else.
  app.use('*', responseHeaders(logger), hostCheck(rt.options.allowedHosts, { adminToken: rt.options.adminToken }));
  // Before any route of the control plane or the dashboard, so a refused call changes nothing.
  app.use('/_emulator/*', crossSiteGuard(rt.options.cors));
  app.use('*', journalRequests(rt));
  // Before the API key: a browser's preflight carries no key.
  const cors = corsFor(rt, rt.options.cors);
  if (cors !== null) app.use(`${API_BASE_PATH}/*`, cors);

  app.onError(onError);
  app.notFound(notFound(() => []));

  app.use('*', storeSync(rt), droppedBody());
  return app;
}

/** The base and the health probes at the root (`/healthz`, `/readyz`), as createApp() mounts them. */
export function probeApp(rt: Runtime, options: AppOptions = {}): OpenAPIHono<AppEnv> {
  return baseApp(rt, options).route('/', healthRoutes(rt));
}
