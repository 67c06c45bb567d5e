/**
 * The control plane's guard (D11): `/_emulator/*` needs no API key but answers only
 * loopback callers, unless `--admin-token` is set, in which case any caller that sends it
 * as `Authorization: Bearer <token>` is let in as well.
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

export function controlPlaneGuard(adminToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    let address: string | undefined;
    try {
      address = getConnInfo(c).remote.address;
    } catch {
      address = undefined;
    }
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (adminToken !== undefined && tokenMatches(bearer, adminToken)) return next();
    if (isLoopback(address)) return next();
    throw new ApiError(
      'permission_denied',
      adminToken === undefined
        ? 'The control plane answers only on loopback; start svc serve with --admin-token to reach it from elsewhere'
        : 'Send the admin token as Authorization: Bearer <token>',
    );
  };
}
