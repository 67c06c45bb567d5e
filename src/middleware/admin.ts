/**
 * The control plane's guard (docs/control-plane.md#who-may-call-it): `/_emulator/*` needs no API
 * key. Without `--admin-token` it answers only loopback callers (whose Host host-check.ts has
 * already accepted, so a rebinding page is not one of them); with it, every caller must send the
 * token as `Authorization: Bearer <token>`, loopback included, since behind a proxy on the same
 * host every caller is loopback. The Bearer is never taken from a cookie or a query, which a
 * browser would send for another site's page.
 */
import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return true; // in-process requests (app.request) have no socket
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The address the request came from; undefined for an in-process request. */
function remoteAddress(c: Parameters<MiddlewareHandler>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** Refuses (403 permission_denied) a caller of the control plane or the dashboard that may not reach it. */
export function controlPlaneGuard(adminToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (adminToken !== undefined) {
      const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
      if (tokenMatches(bearer, adminToken)) return next();
      throw new ApiError(
        'permission_denied',
        'svc serve was started with --admin-token: send it as Authorization: Bearer <token> on every /_emulator call, from loopback too',
      );
    }
    if (isLoopback(remoteAddress(c))) return next();
    throw new ApiError('permission_denied', 'The control plane answers only on loopback; start svc serve with --admin-token to reach it from elsewhere');
  };
}
