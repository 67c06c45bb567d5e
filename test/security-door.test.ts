/**
 * The door of a running svc (docs/control-plane.md#who-may-reach-it), one row per attack: the
 * request as a page of another site, a DNS-rebinding page or a caller without the admin token
 * would send it, the refusal it must get (status and code), and the store, the clock and the
 * faults unchanged after it. Then the rows that must pass: svc's own clients, the dashboard's own
 * forms, loopback names on any port, the names --allowed-hosts lists. Requests go out through
 * node:http, which sends the Host, Origin and Sec-Fetch-Site headers as written.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_HEADER } from '../src/middleware/cross-site.js';
import { usageMeter } from '../src/services/usage.js';
import { ACME_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

const ADMIN_TOKEN = 'door-test-admin-token';
const FORM = 'application/x-www-form-urlencoded';

type Target = 'open' | 'guarded' | 'listed' | 'all';

interface Row {
  name: string;
  on?: Target;
  method: string;
  /** Origin-form path, or an absolute URL sent as the request target (absolute form). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  body: string;
}

/** One request exactly as written: node:http adds only Host (when not given) and Content-Length. */
function send(port: number, row: Row): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: row.method, path: row.path, headers: row.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(row.body);
  });
}

const ATTACKS: Array<Row & { code: string }> = [
  {
    name: 'a field-less HTML form of another site posts /_emulator/reset',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { origin: 'http://evil.example', 'content-type': FORM, 'sec-fetch-site': 'cross-site' },
    body: '',
    code: 'cross_site_request',
  },
  {
    name: 'the same form from a browser that sends no Sec-Fetch-Site',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { origin: 'http://evil.example', 'content-type': FORM },
    body: '',
    code: 'cross_site_request',
  },
  {
    name: 'a text/plain fetch of another site posts /_emulator/reset',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
    body: '{}',
    code: 'cross_site_request',
  },
  {
    name: 'a page on another loopback port (same site) posts text/plain',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { origin: 'http://localhost:5173', 'content-type': 'text/plain', 'sec-fetch-site': 'same-site' },
    body: '{}',
    code: 'cross_site_request',
  },
  {
    name: 'a sandboxed page (Origin: null) posts JSON',
    method: 'POST',
    path: '/_emulator/faults',
    headers: { origin: 'null', 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/users', count: 1 }),
    code: 'cross_site_request',
  },
  {
    name: 'a request the browser marks Sec-Fetch-Site: cross-site, even with JSON and the header',
    method: 'POST',
    path: '/_emulator/faults',
    headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json', [CONTROL_HEADER]: '1' },
    body: JSON.stringify({ path: '/users', count: 1 }),
    code: 'cross_site_request',
  },
  {
    name: 'a caller with neither JSON nor the header (curl -X POST without -H)',
    method: 'POST',
    path: '/_emulator/reset',
    code: 'cross_site_request',
  },
  {
    name: 'DELETE /_emulator/faults as a form',
    method: 'DELETE',
    path: '/_emulator/faults',
    headers: { 'content-type': FORM },
    code: 'cross_site_request',
  },
  {
    name: "a dashboard action posted by a page on another loopback port, with the dashboard's own fields",
    method: 'POST',
    path: '/_emulator/ui/reset',
    headers: { origin: 'http://127.0.0.1:9', 'content-type': FORM },
    body: 'back=%2F_emulator%2Fui',
    code: 'cross_site_request',
  },
  {
    name: 'a dashboard action posted with no Origin at all',
    method: 'POST',
    path: '/_emulator/ui/faults/clear',
    headers: { 'content-type': FORM },
    body: '',
    code: 'cross_site_request',
  },
  {
    name: 'Host: evil.example on /v1/users with a valid key (a rebinding page that learnt a key)',
    method: 'GET',
    path: '/v1/users',
    headers: { host: 'evil.example:4010', 'x-api-key': ACME_KEY },
    code: 'host_not_allowed',
  },
  {
    name: 'Host: evil.example on POST /v1/users',
    method: 'POST',
    path: '/v1/users',
    headers: { host: 'evil.example', 'x-api-key': ACME_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'rebound@example.com' }),
    code: 'host_not_allowed',
  },
  {
    name: 'Host: evil.example on /_emulator/requests (the journal)',
    method: 'GET',
    path: '/_emulator/requests',
    headers: { host: 'evil.example' },
    code: 'host_not_allowed',
  },
  { name: 'Host: evil.example on the dashboard', method: 'GET', path: '/_emulator/ui', headers: { host: 'evil.example' }, code: 'host_not_allowed' },
  {
    name: 'Host: 127.0.0.1.nip.io (a name that resolves to loopback) posts to the control plane as a program would',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { host: '127.0.0.1.nip.io:4010', [CONTROL_HEADER]: '1' },
    code: 'host_not_allowed',
  },
  { name: 'Host: localhost.evil.example', method: 'GET', path: '/_emulator/clock', headers: { host: 'localhost.evil.example' }, code: 'host_not_allowed' },
  {
    name: 'Host: evil.example on the OpenAPI document (no servers entry naming it)',
    method: 'GET',
    path: '/v1/openapi.json',
    headers: { host: 'evil.example' },
    code: 'host_not_allowed',
  },
  {
    name: 'Host: evil.example on the payment provider',
    method: 'GET',
    path: '/_provider/checkout/x',
    headers: { host: 'evil.example' },
    code: 'host_not_allowed',
  },
  { name: 'Host: evil.example on /healthz', method: 'GET', path: '/healthz', headers: { host: 'evil.example' }, code: 'host_not_allowed' },
  {
    name: 'an absolute-form target at evil.example with a loopback Host',
    method: 'GET',
    path: 'http://evil.example/v1/users',
    headers: { host: '127.0.0.1', 'x-api-key': ACME_KEY },
    code: 'host_not_allowed',
  },
  {
    name: 'a name not in --allowed-hosts on the emulator that lists others',
    on: 'listed',
    method: 'GET',
    path: '/v1/users',
    headers: { host: 'other.internal', 'x-api-key': ACME_KEY },
    code: 'host_not_allowed',
  },
  {
    name: '--allowed-hosts all still keeps a foreign Host from the control plane when no admin token is set',
    on: 'all',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { host: 'evil.example', [CONTROL_HEADER]: '1' },
    code: 'host_not_allowed',
  },
  {
    name: 'the admin token missing while set, from loopback',
    on: 'guarded',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { [CONTROL_HEADER]: '1' },
    code: 'permission_denied',
  },
  {
    name: 'a wrong admin token',
    on: 'guarded',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { [CONTROL_HEADER]: '1', authorization: 'Bearer not-the-token' },
    code: 'permission_denied',
  },
  { name: 'the admin token missing on a read of the journal', on: 'guarded', method: 'GET', path: '/_emulator/requests', code: 'permission_denied' },
  {
    name: 'the admin token in a cookie (a browser would send it for any page)',
    on: 'guarded',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { [CONTROL_HEADER]: '1', cookie: `svc_admin=${ADMIN_TOKEN}; authorization=Bearer ${ADMIN_TOKEN}` },
    code: 'permission_denied',
  },
];

const PASSES: Array<Row & { status: number }> = [
  { name: 'the CLI: x-svc-control and no Origin', method: 'DELETE', path: '/_emulator/faults', headers: { [CONTROL_HEADER]: '1' }, status: 200 },
  { name: 'the CLI resets with no body', method: 'POST', path: '/_emulator/reset', headers: { [CONTROL_HEADER]: '1' }, status: 200 },
  {
    name: 'a JSON POST without Origin',
    method: 'POST',
    path: '/_emulator/clock/advance',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ by: '1m' }),
    status: 200,
  },
  {
    name: "the dashboard's own form, with svc's Origin",
    method: 'POST',
    path: '/_emulator/ui/faults/clear',
    headers: { origin: 'ORIGIN', 'content-type': FORM, 'sec-fetch-site': 'same-origin' },
    body: 'back=%2F_emulator%2Fui',
    status: 303,
  },
  { name: 'Host: localhost on another port', method: 'GET', path: '/v1/users', headers: { host: 'localhost:1', 'x-api-key': ACME_KEY }, status: 200 },
  {
    name: 'an absolute-form target at 127.1 (a short spelling of 127.0.0.1)',
    method: 'GET',
    path: 'http://127.1:9/v1/users',
    headers: { host: 'localhost', 'x-api-key': ACME_KEY },
    status: 200,
  },
  { name: 'Host: 127.1, a short spelling of 127.0.0.1', method: 'GET', path: '/v1/users', headers: { host: '127.1', 'x-api-key': ACME_KEY }, status: 200 },
  { name: 'Host: 127.8.9.10, elsewhere in 127/8', method: 'GET', path: '/v1/users', headers: { host: '127.8.9.10', 'x-api-key': ACME_KEY }, status: 200 },
  { name: 'Host: [::1]', method: 'GET', path: '/v1/users', headers: { host: '[::1]:4010', 'x-api-key': ACME_KEY }, status: 200 },
  { name: 'Host: app.localhost, in capitals', method: 'GET', path: '/_emulator/clock', headers: { host: 'App.LOCALHOST:3000' }, status: 200 },
  {
    name: 'a name --allowed-hosts lists',
    on: 'listed',
    method: 'GET',
    path: '/v1/users',
    headers: { host: 'svc.internal:8080', 'x-api-key': ACME_KEY },
    status: 200,
  },
  { name: 'a name under a listed .domain', on: 'listed', method: 'GET', path: '/_emulator/clock', headers: { host: 'api.example.test' }, status: 200 },
  { name: 'the listed .domain itself', on: 'listed', method: 'GET', path: '/healthz', headers: { host: 'example.test' }, status: 200 },
  {
    name: '--allowed-hosts all answers /v1 at any name',
    on: 'all',
    method: 'GET',
    path: '/v1/users',
    headers: { host: 'anything.example', 'x-api-key': ACME_KEY },
    status: 200,
  },
  {
    name: 'the admin token from loopback',
    on: 'guarded',
    method: 'POST',
    path: '/_emulator/reset',
    headers: { [CONTROL_HEADER]: '1', authorization: `Bearer ${ADMIN_TOKEN}` },
    status: 200,
  },
];

describe('the door of svc: each attack is refused and changes nothing, and svc’s own callers pass', () => {
  const svcs = {} as Record<Target, TestEmulator>;
  const portOf = (target: Target | undefined) => svcs[target ?? 'open'].emulator.server.port;

  /** What the attacks would change: the store (export), the clock, the faults, read as a program with the token. */
  async function state(target: Target): Promise<string> {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const svc = svcs[target];
    const parts = await Promise.all(['/_emulator/export', '/_emulator/clock', '/_emulator/faults'].map((path) => svc.request('GET', path, { headers })));
    for (const part of parts) expect(part.status, part.text).toBe(200);
    return parts.map((part) => part.text).join('\n');
  }

  beforeAll(async () => {
    const start = { inMemory: true, clock: { startTime: new Date('2026-11-21T10:00:00.000Z'), speed: 0.000001 } };
    [svcs.open, svcs.guarded, svcs.listed, svcs.all] = await Promise.all([
      startTestEmulator(start),
      startTestEmulator({ ...start, adminToken: ADMIN_TOKEN }),
      startTestEmulator({ ...start, allowedHosts: ['svc.internal', '.example.test'] }),
      startTestEmulator({ ...start, allowedHosts: 'all' }),
    ]);
    // A user that a reset would remove, so a reset that got through shows in the export.
    for (const svc of Object.values(svcs)) {
      expect((await svc.request('POST', '/users', { body: { email: 'still-here@example.com' } })).status).toBe(201);
      // The call's usage goes to the store now, not in the middle of a row.
      await usageMeter(svc.emulator.rt).flush();
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(svcs).map((svc) => svc.close()));
  });

  it.each(ATTACKS)('refuses $name: 403 $code, nothing changed', async (row) => {
    const target = row.on ?? 'open';
    const before = await state(target);
    const answer = await send(portOf(target), row);
    expect(answer.status, answer.body).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), code: row.code, details: [] });
    expect(await state(target)).toBe(before);
  });

  it.each(PASSES)('lets in $name: $status', async (row) => {
    const svc = svcs[row.on ?? 'open'];
    const headers = Object.fromEntries(Object.entries(row.headers ?? {}).map(([name, value]) => [name, value === 'ORIGIN' ? svc.origin : value]));
    const answer = await send(portOf(row.on), { ...row, headers });
    expect(answer.status, answer.body).toBe(row.status);
  });

  it('leaves a Host that is no host name (user info, a path, a space) to the server, which refuses it before the app', async () => {
    const before = await state('open');
    for (const host of ['evil.example@127.0.0.1', 'evil.example/x', '127.0.0.1 evil.example']) {
      const answer = await send(portOf('open'), { name: host, method: 'POST', path: '/_emulator/reset', headers: { host, [CONTROL_HEADER]: '1' } });
      expect(answer.status, `${host}: ${answer.body}`).toBe(400);
    }
    expect(await state('open')).toBe(before);
  });

  it("says what to send instead: the header, JSON, or the host name's flag", async () => {
    const form = await send(portOf('open'), ATTACKS[0]!);
    expect(JSON.parse(form.body).error).toContain(`${CONTROL_HEADER}: 1`);
    const host = await send(
      portOf('open'),
      ATTACKS.find((row) => row.code === 'host_not_allowed')!,
    );
    expect(JSON.parse(host.body).error).toContain('--allowed-hosts evil.example');
  });
});
