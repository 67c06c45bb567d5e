/**
 * CORS on /v1: preflights answered without an API key, the origins allowed by
 * default (loopback, the tenants' configured ones) and by --cors, the exposed headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import type { CorsSetting } from '../runtime.js';
import { isLoopbackOrigin } from './cors.js';

const preflight = (svc: InProcessEmulator, origin: string, path = '/users') =>
  svc.request('OPTIONS', path, {
    key: null,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' },
  });

describe('isLoopbackOrigin', () => {
  it.for([
    ['http://localhost:5173', true],
    ['https://localhost', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:3000', true],
    ['http://localhost.evil.test', false],
    ['http://127.0.0.2:80', false],
    ['http://localhost:5173/path', false],
    ['file://localhost', false],
    ['null', false],
  ] as const)('%s → %s', ([origin, expected]) => {
    expect(isLoopbackOrigin(origin)).toBe(expected);
  });
});

describe('CORS by default', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  it('answers a preflight from a localhost origin with 204, no API key asked for', async () => {
    const res = await preflight(svc, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('answers a preflight to an area not loaded yet without loading it through the key check', async () => {
    const res = await preflight(svc, 'http://127.0.0.1:3000', '/billing/checkout');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });

  it('gives a GET from an allowed origin the origin and the exposed headers', async () => {
    const res = await svc.request('GET', '/users?page_size=1', { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase().split(',');
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']));
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
  });

  it('gives an error answer the CORS headers too, so the page can read the envelope', async () => {
    const res = await svc.request('GET', '/users', { key: null, headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_api_key');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it("allows an origin only a tenant configured (an app's allowedOrigins), and one added later", async () => {
    const origin = 'https://shop.example.com';
    expect((await preflight(svc, origin)).headers.get('access-control-allow-origin')).toBeNull();
    const created = await svc.request('POST', '/apps', { key: GLOBEX_KEY, body: { name: 'Shop', allowedOrigins: [origin] } });
    expect(created.status).toBe(201);
    expect((await preflight(svc, origin)).headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('refuses another origin: no Access-Control-Allow-Origin on the preflight or the answer', async () => {
    const res = await preflight(svc, 'https://evil.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await svc.request('GET', '/users?page_size=1', { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds nothing to a request without Origin (not a browser)', async () => {
    const res = await svc.request('GET', '/users?page_size=1');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('leaves the control plane out of CORS', async () => {
    const res = await svc.request('OPTIONS', '/_emulator/reset', {
      key: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('--cors', () => {
  const started: InProcessEmulator[] = [];
  const start = async (cors: CorsSetting) => {
    const svc = await startInProcess({ cors });
    started.push(svc);
    return svc;
  };
  afterAll(() => Promise.all(started.map((svc) => svc.close())));

  it('* allows any origin with a wildcard', async () => {
    const svc = await start('*');
    const res = await preflight(svc, 'https://anywhere.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a list allows those origins and the tenants’, instead of the loopback ones', async () => {
    const svc = await start(['http://myapp.test:3000']);
    expect((await preflight(svc, 'http://myapp.test:3000')).headers.get('access-control-allow-origin')).toBe('http://myapp.test:3000');
    // http://localhost:5173 is the fixture's Acme Admin app origin; :5174 is no tenant's.
    expect((await preflight(svc, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await preflight(svc, 'http://localhost:5174')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('off answers a preflight as before: 401 for the missing key, no CORS header', async () => {
    const svc = await start('off');
    const res = await preflight(svc, 'http://localhost:5173');
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
