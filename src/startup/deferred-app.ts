/**
 * A wrapper around the app's fetch for `svc serve`: the server listens before the app is built.
 * Until the first request that needs it, the health probes are answered by an app of their own
 * (app-base.ts: the same middleware and routes); that request builds the app (its modules are
 * loaded then) and every request from then on goes through the app alone, once. Building every
 * area at start measured about three times bare Hono's start; the gain is on docs/http-layer.md.
 */
import { ApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import { JSON_CONTENT_TYPE } from '../middleware/response.js';
import { newRequestId } from '../middleware/request-id.js';

/** What a server calls: a Hono app's fetch. */
export type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** The probes the small app answers: `/healthz` and `/readyz` at the root, with or without a query. */
const PROBE = /^[a-z]+:\/\/[^/]+\/(?:healthz|readyz)(?:\?|$)/;

export function deferredFetch(probes: { fetch: Fetch }, build: () => Promise<{ fetch: Fetch }>, logger: Logger): Fetch {
  let app: { fetch: Fetch } | null = null;
  let building: Promise<{ fetch: Fetch }> | null = null;
  const built = (): Promise<{ fetch: Fetch }> =>
    (building ??= build().then(
      (made) => (app = made),
      (error: unknown) => {
        building = null; // a broken install: the next request tries again
        throw error;
      },
    ));
  return (request, env) => {
    if (app !== null) return app.fetch(request, env);
    if (PROBE.test(request.url)) return probes.fetch(request, env);
    return built().then(
      (made) => made.fetch(request, env),
      (error: unknown) => notBuilt(error, request, logger),
    );
  };
}

/** The answer when the app cannot be built: a 500 in the error envelope, as any unhandled error (D6). */
function notBuilt(error: unknown, request: Request, logger: Logger): Response {
  const given = request.headers.get('x-request-id');
  const requestId = given !== null && /^[\w.:-]{1,128}$/.test(given) ? given : newRequestId();
  logger.log('error', 'unhandled error', { requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  const apiError = new ApiError('internal_error', 'Something went wrong inside the emulator; the server log has the details');
  return new Response(JSON.stringify(apiError.toBody()), {
    status: apiError.status,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'x-request-id': requestId },
  });
}
