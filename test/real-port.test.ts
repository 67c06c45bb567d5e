/**
 * One request per area of the spec over a real socket (a real @hono/node-server on an
 * ephemeral loopback port): the route tests run in-process through app.request() for speed,
 * and this table shows every area answering the same way through the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { signIn, type SignedInUser } from '../src/test-support/signed-in.js';

type Row = [area: string, method: string, path: string, status: number, body?: unknown];

const ROWS: Row[] = [
  ['Apps', 'GET', '/apps?page_size=1', 200],
  ['Users', 'GET', '/users?page_size=1', 200],
  ['Users (wallet)', 'GET', '/users/me/wallet', 404],
  ['API keys', 'GET', '/api-keys', 200],
  ['Webhooks', 'GET', '/webhooks', 200],
  ['Passkey/WebAuthn auth', 'GET', '/auth/passkey/login-options', 200],
  ['Telegram auth', 'GET', '/auth/telegram/widget-config', 200],
  ['Guest sessions', 'POST', '/guests', 201, {}],
  ['Delegated sessions', 'GET', '/delegated-sessions/dsn_0000000000000000000000', 404],
  ['MFA', 'GET', '/mfa/status', 200],
  ['MPC key management', 'GET', '/mpc/shares/wal_0000000000000000000000', 404],
  ['Custom domains', 'POST', '/custom-domains/verify', 404, {}],
  ['Tenant', 'GET', '/tenant', 200],
  ['Analytics', 'GET', '/analytics?period=7d', 200],
  ['Billing', 'GET', '/billing/usage', 200],
  ['Health', 'GET', '/healthz', 200],
];

describe('every area over a real port', () => {
  let svc: TestEmulator;
  let user: SignedInUser;
  beforeAll(async () => {
    svc = await startTestEmulator();
    user = await signIn(svc);
  });
  afterAll(() => svc.close());

  it.each(ROWS)('%s: %s %s answers %i in its envelope', async (_area, method, path, status, body) => {
    const res = await svc.request(method, `/v1${path}`, { headers: user.headers, ...(body === undefined ? {} : { body }) });
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Object.keys(res.body)).toEqual(status < 400 ? expect.arrayContaining(['data']) : ['error', 'code', 'details']);
  });
});
