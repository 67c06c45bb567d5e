/**
 * createApp(runtime): mounts every area's router under /v1, the health probes at the root,
 * the error handler and the OpenAPI document. It never reads argv or env and never listens.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { apiKeyAuth } from './middleware/auth.js';
import { ChainRouter } from './middleware/chain-router.js';
import { droppedBody, jsonBody } from './middleware/body.js';
import { injectFaults } from './middleware/faults.js';
import { rateLimit } from './middleware/rate-limit.js';
import { storeSync } from './middleware/store-sync.js';
import { responseHeaders } from './middleware/response.js';
import { inSequence } from './middleware/sequence.js';
import { SplitRouter } from './middleware/split-router.js';
import type { AppEnv } from './middleware/context.js';
import type { Runtime } from './runtime.js';
import { apiKeysRoutes } from './routes/api-keys.js';
import { analyticsRoutes } from './routes/analytics.js';
import { appsRoutes } from './routes/apps.js';
import { billingRoutes } from './routes/billing.js';
import { controlRoutes } from './routes/control.js';
import { customDomainsRoutes } from './routes/custom-domains.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { delegatedSessionsRoutes } from './routes/delegated-sessions.js';
import { healthRoutes } from './routes/health.js';
import { passkeysRoutes } from './routes/passkeys.js';
import { telegramRoutes } from './routes/telegram.js';
import { mfaRoutes } from './routes/mfa.js';
import { mpcRoutes } from './routes/mpc.js';
import { registerOpenApiDocument } from './routes/openapi.js';
import { guestsRoutes } from './routes/guests.js';
import { tenantRoutes } from './routes/tenant.js';
import { usersRoutes } from './routes/users.js';
import { walletRoutes } from './routes/wallet.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { providerPages } from './ui/provider.js';
import { passkeyDemoRoutes } from './ui/passkey-demo.js';

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

export function createApp(rt: Runtime, options: AppOptions = {}): OpenAPIHono<AppEnv> {
  const logger = options.logger ?? silentLogger;
  const onError: ErrorHandler<AppEnv> = (error, c) => {
    const apiError = toApiError(error, logger, c.get('requestId') ?? '');
    return c.json(apiError.toBody(), apiError.status as 400, apiError.headers);
  };
  // One handler per request, synchronous while its steps are (middleware/chain-router.ts).
  const app = new OpenAPIHono<AppEnv>({ router: new ChainRouter(new SplitRouter(), onError) });

  app.use('*', responseHeaders(logger));

  app.onError(onError);
  app.notFound((c) => {
    const error = new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), 404);
  });

  app.use('*', inSequence(storeSync(rt), droppedBody()));

  const health = healthRoutes(rt);
  app.route('/', health);

  app.route('/_emulator/ui/passkey', passkeyDemoRoutes(rt));

  // The dashboard takes HTML forms, so it is mounted before the control plane's JSON-only bodies.
  app.route('/_emulator/ui', dashboardRoutes(rt));
  app.use('/_emulator/*', jsonBody());
  app.route('/_emulator', controlRoutes(rt));
  app.route('/_provider', providerPages(rt));

  app.use(`${API_BASE_PATH}/*`, inSequence(injectFaults(rt, API_BASE_PATH), jsonBody(), apiKeyAuth(rt), rateLimit(rt)));
  const v1 = new OpenAPIHono<AppEnv>();
  v1.route('/', health);
  v1.route('/apps', appsRoutes(rt));
  // Before /users so that its /{id} never sees /users/me/wallet.
  v1.route('/users/me/wallet', walletRoutes(rt));
  v1.route('/users', usersRoutes(rt));
  v1.route('/api-keys', apiKeysRoutes(rt));
  v1.route('/tenant', tenantRoutes(rt));
  v1.route('/mfa', mfaRoutes(rt));
  v1.route('/mpc', mpcRoutes(rt));
  v1.route('/delegated-sessions', delegatedSessionsRoutes(rt));
  v1.route('/guests', guestsRoutes(rt));
  v1.route('/auth/telegram', telegramRoutes(rt));
  v1.route('/auth/passkey', passkeysRoutes(rt));
  v1.route('/webhooks', webhooksRoutes(rt));
  v1.route('/custom-domains', customDomainsRoutes(rt));
  v1.route('/analytics', analyticsRoutes(rt));
  v1.route('/billing', billingRoutes(rt));

  registerOpenApiDocument(v1, { version: options.version ?? '0.0.0', basePath: API_BASE_PATH });
  app.route(API_BASE_PATH, v1);
  return app;
}
