/**
 * The control plane answers only loopback callers unless --admin-token is set (DESIGN D11).
 * The server binds this machine's own non-loopback interface address (from
 * os.networkInterfaces()) and the test connects to it, so the server sees a non-loopback peer
 * without any other host involved. Skipped, saying so, on a machine with no such address.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, sendRequest, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

const ADMIN_TOKEN = 'admin-token-for-the-guard-test';
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

const CONTROL_CALLS: Array<[string, string]> = [
  ['GET', '/_emulator/health'],
  ['GET', '/_emulator/clock'],
  ['POST', '/_emulator/clock/advance'],
  ['GET', '/_emulator/events'],
  ['GET', '/_emulator/dlq'],
  ['POST', '/_emulator/reset'],
  ['POST', '/_emulator/faults'],
  ['DELETE', '/_emulator/faults'],
  ['GET', '/_emulator/ui'],
  ['GET', '/_emulator/ui/passkey'],
];

describe.skipIf(ownAddress === undefined)(`the control plane seen from ${ownAddress ?? '(no non-loopback address here)'}`, () => {
  let open: TestEmulator;
  let guarded: TestEmulator;
  const at = (svc: TestEmulator, path: string) => `http://${ownAddress}:${svc.emulator.server.port}${path}`;

  beforeAll(async () => {
    // svc serve --host adds its address to the Host names it answers; startEmulator() is told.
    open = await startTestEmulator({ host: ownAddress!, inMemory: true, allowedHosts: [ownAddress!] });
    guarded = await startTestEmulator({ host: ownAddress!, inMemory: true, adminToken: ADMIN_TOKEN, allowedHosts: [ownAddress!] });
  });
  afterAll(async () => {
    await open?.close();
    await guarded?.close();
  });

  it.each(CONTROL_CALLS)('without --admin-token, %s %s is 403 permission_denied for a non-loopback caller', async (method, path) => {
    const res = await sendRequest(at(open, path), method, { ...(method === 'GET' ? {} : { body: {} }), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(403);
    // The dashboard is for people: its refusal is a page that says the same.
    if (res.headers.get('content-type')?.startsWith('text/html')) expect(res.text).toMatch(/--admin-token/);
    else expect(res.body).toEqual({ error: expect.stringMatching(/--admin-token/), code: 'permission_denied', details: [] });
  });

  it.each(CONTROL_CALLS)('with --admin-token, %s %s is 403 without the Bearer or with a wrong one', async (method, path) => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: ADMIN_TOKEN }]) {
      const res = await sendRequest(at(guarded, path), method, { ...(method === 'GET' ? {} : { body: {} }), headers });
      expect(res.status).toBe(403);
      if (!res.headers.get('content-type')?.startsWith('text/html')) expect(res.body.code).toBe('permission_denied');
    }
  });

  it('with --admin-token and the Bearer, a non-loopback caller is let in', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const health = await sendRequest(at(guarded, '/_emulator/health'), 'GET', { headers });
    expect(health.status).toBe(200);
    expect(health.body.data.status).toBe('ok');
    const advanced = await sendRequest(at(guarded, '/_emulator/clock/advance'), 'POST', { headers, body: { by: '1m' } });
    expect(advanced.status).toBe(200);
    const ui = await sendRequest(at(guarded, '/_emulator/ui'), 'GET', { headers });
    expect(ui.status).toBe(200);
  });

  it('the API itself answers a non-loopback caller with a key as usual', async () => {
    const res = await sendRequest(at(open, '/v1/apps'), 'GET', { key: ACME_KEY });
    expect(res.status).toBe(200);
  });
});
