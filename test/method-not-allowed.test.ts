/**
 * A method a documented path does not have is 405 `method_not_allowed` with `Allow`, in the error
 * envelope, under /v1 and /_emulator alike; a path no operation declares stays 404 `not_found`.
 * The table runs through the real app in process; the last tests through a real port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';
import type { Runtime } from '../src/runtime.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../src/services/seed.js';
import { openSession } from '../src/services/sessions.js';
import { ACME_KEY, controlHeaders, startTestEmulator } from '../src/test-support/harness.js';

const ORIGIN = 'http://127.0.0.1:4010';

let rt: Runtime;
let app: ReturnType<typeof createApp>;
/** A signed-in user's `authorization`, for the paths whose routes ask for a session before any answer. */
let session: Record<string, string> = {};

beforeAll(async () => {
  rt = await createRuntime({ inMemory: true });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  app = createApp(rt);
  const created = await send('POST', '/v1/users', { 'content-type': 'application/json' }, JSON.stringify({ email: 'allow@example.com' }));
  const user = rt.store.get('users', ((await created.json()) as { data: { id: string } }).data.id)!;
  const { grant } = await rt.store.write(() => openSession(rt, user, 'passkey', 60 * 60 * 1000));
  session = { authorization: `Bearer ${grant.token}` };
});

afterAll(async () => {
  await rt.close();
});

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  const url = `${ORIGIN}${path}`;
  const sent = { 'x-api-key': ACME_KEY, ...controlHeaders(url, method), ...session, ...headers };
  return app.request(url, { method, headers: sent, ...(body === undefined ? {} : { body }) });
}

describe('a method the path does not have', () => {
  const rows: Array<{ method: string; path: string; allow: string }> = [
    { method: 'PUT', path: '/v1/users', allow: 'GET, HEAD, POST, OPTIONS' },
    { method: 'DELETE', path: '/v1/users/usr_doesnotmatter00000000', allow: 'GET, HEAD, OPTIONS' },
    { method: 'POST', path: '/v1/apps/app_x', allow: 'GET, HEAD, PATCH, DELETE, OPTIONS' },
    // The literal path and the template beside it: GET /guests/cleanup reaches GET /guests/{id}.
    { method: 'PATCH', path: '/v1/guests/cleanup', allow: 'GET, HEAD, POST, DELETE, OPTIONS' },
    // Its routes ask for a session first, as every /v1 route asks for the key: the requests carry both.
    { method: 'PATCH', path: '/v1/users/me/wallet', allow: 'GET, HEAD, POST, OPTIONS' },
    { method: 'POST', path: '/v1/openapi.json', allow: 'GET, HEAD, OPTIONS' },
    { method: 'POST', path: '/v1/healthz', allow: 'GET, HEAD, OPTIONS' },
    { method: 'DELETE', path: '/healthz', allow: 'GET, HEAD' },
    { method: 'DELETE', path: '/_emulator/clock', allow: 'GET, HEAD, POST' },
    { method: 'GET', path: '/_emulator/clock/advance', allow: 'POST' },
    { method: 'PATCH', path: '/_emulator/snapshots/before-test', allow: 'GET, HEAD, DELETE' },
    { method: 'OPTIONS', path: '/_emulator/faults', allow: 'GET, HEAD, POST, DELETE' },
  ];

  it.each(rows)('$method $path is 405 with Allow: $allow', async ({ method, path, allow }) => {
    const response = await send(method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({ error: `${path} has no ${method}; it answers ${allow}`, code: 'method_not_allowed', details: [] });
  });

  it('answers a HEAD the path lacks with the status and Allow, without a body', async () => {
    const response = await send('HEAD', '/_emulator/clock/advance');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.text()).toBe('');
  });

  it('answers an OPTIONS that is no preflight on a /v1 path with 204 and Allow, as CORS lists OPTIONS there', async () => {
    const response = await send('OPTIONS', '/v1/webhooks');
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('lists every method a route of the app has on its path', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const { method, path } of app.routes) {
      if (method === 'ALL' || path.includes('*') || !/^\/(v1|_emulator)\//.test(path) || path.startsWith('/_emulator/ui')) continue;
      (byPath.get(path) ?? byPath.set(path, new Set()).get(path)!).add(method);
    }
    expect(byPath.size).toBeGreaterThan(60);
    for (const [template, methods] of byPath) {
      // A method the path lacks: every path lacks one of these (PUT is rare: the emulated DNS records' alone).
      const lacking = ['PUT', 'PATCH', 'DELETE', 'POST'].find((method) => !methods.has(method));
      expect(lacking, template).toBeDefined();
      const response = await send(lacking!, template.replaceAll(/:[^/]+/g, 'x'));
      expect(response.status, template).toBe(405);
      const allow = response.headers.get('allow')!.split(', ');
      for (const method of methods) expect(allow, template).toContain(method);
    }
  });
});

describe('a path no operation declares', () => {
  it.each([
    ['GET', '/v1/nothing-here'],
    ['POST', '/v1/users/usr_x/nothing'],
    ['GET', '/v1/users/'],
    ['DELETE', '/_emulator/nothing'],
    ['PUT', '/nothing'],
  ])('%s %s stays 404 not_found, without Allow', async (method, path) => {
    const response = await send(method, path);
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(((await response.json()) as { code: string }).code).toBe('not_found');
  });
});

describe('through a real port', () => {
  it('answers 405 with Allow, and leaves OPTIONS out of /v1 when CORS is off', async () => {
    const on = await startTestEmulator();
    const off = await startTestEmulator({ cors: 'off' });
    try {
      const withCors = await on.request('DELETE', '/users');
      expect(withCors.status).toBe(405);
      expect(withCors.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(withCors.body.code).toBe('method_not_allowed');
      const withoutCors = await off.request('DELETE', '/users');
      expect(withoutCors.status).toBe(405);
      expect(withoutCors.headers.get('allow')).toBe('GET, HEAD, POST');
      // With CORS off nothing answers OPTIONS under /v1: it is a method the path lacks.
      const options = await off.request('OPTIONS', '/users');
      expect(options.status).toBe(405);
      expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});
