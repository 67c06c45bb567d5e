import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

/** The session guard (D4), seen through a route that needs it: GET /mfa/status. */
describe('user sessions', () => {
  let svc: InProcessEmulator;
  let token: string;
  beforeAll(async () => {
    svc = await startInProcess();
    token = (await svc.request('POST', '/guests', { body: {} })).body.data.session.token;
  });
  afterAll(() => svc.close());

  it.each([
    ['no Authorization header', undefined, undefined, 401, 'missing_session'],
    ['a Basic header', 'Basic dXNlcjpwYXNz', undefined, 401, 'invalid_session'],
    ['an unknown token', 'Bearer st_0000000000000000000000000000000X', undefined, 401, 'invalid_session'],
    ['a token of another tenant', 'TOKEN', GLOBEX_KEY, 401, 'invalid_session'],
    ['a valid token', 'TOKEN', undefined, 200, undefined],
    ['a valid token, lower-case scheme', 'bearer TOKEN', undefined, 200, undefined],
  ])('%s → %i', async (_name, header, key, status, code) => {
    const authorization = header === 'TOKEN' ? `Bearer ${token}` : header?.replace('TOKEN', token);
    const res = await svc.request('GET', '/mfa/status', {
      ...(key === undefined ? {} : { key }),
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.status).toBe(status);
    if (code !== undefined) expect(res.body.code).toBe(code);
  });

  it('still needs the API key with a valid token', async () => {
    const res = await svc.request('GET', '/mfa/status', { key: null, headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_api_key');
  });

  it('expires after the tenant sessionTtl on the emulator clock (410 session_expired)', async () => {
    await svc.request('PATCH', '/tenant', { body: { settings: { sessionTtl: '1h' } } });
    const guest = (await svc.request('POST', '/guests', { body: {} })).body.data;
    const converted = (await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'ttl@example.com' } })).body.data;
    const expiresIn = Date.parse(converted.session.expiresAt) - svc.emulator.rt.clock.nowMs();
    expect(expiresIn).toBeGreaterThan(59 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60 * 1000);
    const headers = { authorization: `Bearer ${converted.session.token}` };
    expect((await svc.request('GET', '/mfa/status', { headers })).status).toBe(200);
    svc.emulator.rt.clock.advance(60 * 60 * 1000 + 1);
    const res = await svc.request('GET', '/mfa/status', { headers });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('session_expired');
  });
});
