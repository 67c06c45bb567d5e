/**
 * Browsers cannot change the emulator through the control plane or the dashboard
 * (docs/control-plane.md#browsers): a page of any site can make a browser send a form or a
 * `text/plain` or `no-cors` fetch to 127.0.0.1 without asking anyone, and those carry neither a
 * JSON content type nor a header of the page's choosing. So every state-changing call under
 * /_emulator (any method but GET, HEAD and OPTIONS) must show it is not cross-site:
 *
 * - `Sec-Fetch-Site: cross-site` or `same-site` is refused (browsers send it on every request they
 *   make; another port of localhost is the same site, not the same origin);
 * - an `Origin`, when sent, is svc's own (the scheme and the Host it was reached at; http or https,
 *   as a proxy may end TLS in front of it) or one `--cors` lists; `Origin: null` is neither;
 * - and the request sends `Content-Type: application/json` (or `…+json`), which no form and no
 *   request a page sends without a preflight can, or the header `x-svc-control` (schemas/control.ts),
 *   which the typed client and the CLI send on every state-changing control call;
 * - the dashboard's own forms (`/_emulator/ui/*`) are the one exception to the line above: a form
 *   posted with svc's own Origin (not merely an allowed one) came from a page of the dashboard.
 *   Browsers send Origin on every POST, so a form without it is refused.
 *
 * A refusal is 403 `cross_site_request` and changes nothing: this runs before any route.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { CorsSetting } from '../runtime.js';
import { CONTROL_REQUEST_HEADER } from '../schemas/control.js';
import { isJsonContentType } from './body.js';

/** Where the dashboard's pages and forms live. */
const DASHBOARD_PATH = '/_emulator/ui';

const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether `origin` is the scheme (http or https) and host:port of `requestUrl`. */
export function isOwnOrigin(origin: string, requestUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin && parsed.host === new URL(requestUrl).host;
}

function refuse(message: string): ApiError {
  return new ApiError('cross_site_request', message);
}

/** The guard for /_emulator; `cors` is `--cors`: its listed origins are trusted as svc's own are. */
export function crossSiteGuard(cors: CorsSetting | undefined): MiddlewareHandler {
  const listed = new Set(Array.isArray(cors) ? (cors as readonly string[]) : []);
  const sendInstead = `send Content-Type: application/json or the header ${CONTROL_REQUEST_HEADER}: 1, without an Origin of another site (the svc CLI and client do)`;
  return (c, next) => {
    if (READING_METHODS.has(c.req.method)) return next();
    const site = c.req.header('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site')
      throw refuse(`A page of another origin cannot change the emulator (Sec-Fetch-Site: ${site}); ${sendInstead}`);
    const origin = c.req.header('origin');
    const own = origin !== undefined && isOwnOrigin(origin, c.req.url);
    if (origin !== undefined && !own && !listed.has(origin))
      throw refuse(`A page of ${JSON.stringify(origin.slice(0, 100))} cannot change the emulator; ${sendInstead}, or list that origin in svc serve --cors`);
    if (c.req.header(CONTROL_REQUEST_HEADER) !== undefined || isJsonContentType(c.req.header('content-type'))) return next();
    const path = c.req.path;
    const dashboard = path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
    if (dashboard && own) return next();
    throw refuse(
      dashboard
        ? `Dashboard actions are accepted only from the dashboard itself (a form posted with svc's own Origin); a program should ${sendInstead}`
        : `A call that changes the emulator must ${sendInstead}; a form or a text/plain body could come from any page`,
    );
  };
}
