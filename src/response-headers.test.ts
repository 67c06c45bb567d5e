/**
 * The headers every answer carries, whichever way it was built: JSON from a route, the error
 * envelope, an injected fault, HTML from the dashboard, an empty answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createRuntime } from './emulator.js';
import { createLogger } from './logger.js';
import { startTestEmulator, type TestEmulator } from './test-support/harness.js';

describe('response headers', () => {
  let svc: TestEmulator;
  let limited: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator({ rateLimit: 'off' });
    limited = await startTestEmulator({ rateLimit: 50 });
  });
  afterAll(async () => {
    await svc?.close();
    await limited?.close();
  });

  it('a JSON answer has exactly one content type and the request id', async () => {
    const res = await svc.request('GET', '/apps', { headers: { 'x-request-id': 'json-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('json-1');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
  });

  it('rate-limit headers ride on successes and on errors after auth', async () => {
    const ok = await limited.request('GET', '/apps');
    expect(ok.headers.get('ratelimit-limit')).toBe('100');
    expect(Number(ok.headers.get('ratelimit-remaining'))).toBeLessThan(100);
    const missing = await limited.request('GET', '/apps/app_missing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-limit')).toBe('100');
    expect(missing.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('a created API key (its value shown once) is no-store; a list is not', async () => {
    const created = await svc.request('POST', '/api-keys', { body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect((await svc.request('GET', '/api-keys')).headers.get('cache-control')).toBeNull();
  });

  it('an injected fault names itself, and a 429 fault says when to retry', async () => {
    const fault = await svc.request('POST', '/_emulator/faults', { body: { method: 'GET', path: '/apps', status: 429, count: 1 } });
    expect(fault.status).toBe(201);
    const hit = await svc.request('GET', '/apps', { headers: { 'x-request-id': 'fault-1' } });
    expect(hit.status).toBe(429);
    expect(hit.headers.get('x-svc-fault')).toBe(fault.body.data.id);
    expect(hit.headers.get('retry-after')).toBe('1');
    expect(hit.headers.get('x-request-id')).toBe('fault-1');
    const after = await svc.request('GET', '/apps');
    expect(after.status).toBe(200);
    expect(after.headers.get('x-svc-fault')).toBeNull();
  });

  it('a header set early and given again in other case is sent once, with the later value', async () => {
    const rt = await createRuntime({ inMemory: true });
    const app = createApp(rt);
    app.get('/twice', (c) => {
      c.header('retry-after', '1');
      return c.json({ ok: true }, 429, { 'Retry-After': '2' });
    });
    const response = await app.request('/twice');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    await rt.close();
  });

  it('HTML and empty answers carry the request id too', async () => {
    const page = await svc.request('GET', '/_emulator/ui', { key: null, headers: { 'x-request-id': 'html-1' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-request-id')).toBe('html-1');
    const head = await fetch(`${svc.origin}/healthz`, { method: 'HEAD', headers: { 'x-request-id': 'head-1' } });
    expect(head.headers.get('x-request-id')).toBe('head-1');
  });

  it('each answer gets one log line with its status, time and request id, and none with --quiet', async () => {
    const rt = await createRuntime({ inMemory: true });
    const lines: string[] = [];
    const quietLines: string[] = [];
    const app = createApp(rt, { logger: createLogger({ format: 'json', write: (line) => lines.push(line) }) });
    const quiet = createApp(rt, { logger: createLogger({ format: 'json', quiet: true, write: (line) => quietLines.push(line) }) });
    for (const target of [app, quiet]) {
      expect((await target.request('/healthz', { headers: { 'x-request-id': 'log-1' } })).status).toBe(200);
      expect((await target.request('/v1/apps')).status).toBe(401);
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toMatchObject([
      { level: 'info', msg: 'request', method: 'GET', path: '/healthz', status: 200, requestId: 'log-1' },
      { level: 'info', msg: 'request', method: 'GET', path: '/v1/apps', status: 401, requestId: expect.stringMatching(/^req_/) },
    ]);
    for (const line of logged) expect(line['ms']).toBeGreaterThanOrEqual(0);
    expect(quietLines).toEqual([]);
    await rt.close();
  });
});
