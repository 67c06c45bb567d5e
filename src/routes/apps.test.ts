/**
 * /v1/apps in-process, and over real HTTP the plumbing every endpoint shares (envelopes, content
 * type, request ids, JSON bodies, the 1 MiB limit, unknown routes), driven through /apps.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../test-support/expect-error.js';
import { ACME_KEY, startTestEmulator, type ApiResponse, type TestEmulator } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

/** Sends a body in chunks with no content-length, so only the streaming limit can stop it. */
function postChunked(url: string, key: string, totalBytes: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    // The server may close the socket once it has answered 413; the answer is what counts.
    req.on('error', (error) =>
      (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error),
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"name":"');
    pump();
  });
}

describe('/v1/apps', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess({ clock: { startTime: new Date('2026-12-01T00:00:00.000Z') } });
  });
  afterAll(() => svc.close());

  it('lists the seeded apps, newest first, in the paginated envelope', async () => {
    const res = await svc.request('GET', '/apps');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_UTF8);
    expect(res.body).toMatchObject({ total: 3, page: 1, pageSize: 20, hasMore: false });
    expect(res.body.data.map((a: { name: string }) => a.name).sort()).toEqual(['Acme Admin', 'Acme Mobile', 'Acme Web']);
    const sorted = [...res.body.data].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    expect(res.body.data).toEqual(sorted);
  });

  it('creates an app (201) with every D15 field, ignoring unknown fields, and gets it back', async () => {
    const created = await svc.request('POST', '/apps', {
      body: {
        name: '  Shop  ',
        description: 'the shop',
        allowedOrigins: ['http://localhost:3000', 'https://shop.example:8443'],
        tenantId: 'ten_x',
        id: 'app_mine',
      },
    });
    expect(created.status).toBe(201);
    const app = created.body.data;
    expect(app).toEqual({
      id: expect.stringMatching(/^app_[0-9A-Za-z]{20}$/),
      name: 'Shop',
      description: 'the shop',
      allowedOrigins: ['http://localhost:3000', 'https://shop.example:8443'],
      createdAt: expect.stringMatching(/^2026-12-01T00:00:\d{2}\.\d{3}Z$/),
      updatedAt: app.createdAt,
    });
    const fetched = await svc.request('GET', `/apps/${app.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ data: app });
    const defaults = await svc.request('POST', '/apps', { body: { name: 'Bare' } });
    expect(defaults.status).toBe(201);
    expect(defaults.body.data).toMatchObject({ name: 'Bare', description: null, allowedOrigins: [] });
  });

  it.each([
    ['no name', {}, ['name']],
    ['an empty name', { name: '' }, ['name']],
    ['a blank name', { name: '   ' }, ['name']],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, ['name']],
    ['a number as name', { name: 42 }, ['name']],
    ['a number as description', { name: 'ok', description: 5 }, ['description']],
    ['an origin that is not a URL', { name: 'ok', allowedOrigins: ['not a url'] }, ['allowedOrigins.0']],
    ['an origin with a path', { name: 'ok', allowedOrigins: ['http://ok.test', 'http://a.test/path'] }, ['allowedOrigins.1']],
    ['origins that are not a list', { name: 'ok', allowedOrigins: 'http://a.test' }, ['allowedOrigins']],
    ['two bad fields at once', { name: '', description: 1 }, ['description', 'name']],
    ['a list instead of an object', [], ['(body)']],
    ['null instead of an object', null, ['(body)']],
  ])('POST /apps with %s is 400 validation_error naming each field', async (_label, body, paths) => {
    const res = await svc.request('POST', '/apps', { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'validation_error', paths);
    for (const detail of res.body.details) expect(detail).toMatchObject({ message: expect.any(String), in: 'body' });
  });

  it.each([
    ['the same name', 'Acme Web'],
    ['the name in another case', 'ACME web'],
    ['the name with spaces around it', '  acme web '],
  ])('POST /apps with %s as a seeded app is 409 conflict', async (_label, name) => {
    const res = await svc.request('POST', '/apps', { body: { name } });
    expectError(res, 409, 'conflict', ['name']);
  });

  it('patches name, description and origins; keeps what the patch leaves out', async () => {
    const { body } = await svc.request('POST', '/apps', { body: { name: 'Patchable', description: 'before', allowedOrigins: ['http://a.test'] } });
    const id = body.data.id as string;
    const renamed = await svc.request('PATCH', `/apps/${id}`, { body: { name: 'Patched' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id, name: 'Patched', description: 'before', allowedOrigins: ['http://a.test'], createdAt: body.data.createdAt });
    expect(renamed.body.data.updatedAt >= body.data.updatedAt).toBe(true);
    const cleared = await svc.request('PATCH', `/apps/${id}`, { body: { description: null, allowedOrigins: [] } });
    expect(cleared.body.data).toMatchObject({ name: 'Patched', description: null, allowedOrigins: [] });
    // Its own name in another case is no conflict; the old name is free again.
    expect((await svc.request('PATCH', `/apps/${id}`, { body: { name: 'PATCHED' } })).status).toBe(200);
    expect((await svc.request('POST', '/apps', { body: { name: 'Patchable' } })).status).toBe(201);
    expect((await svc.request('GET', `/apps/${id}`)).body.data.name).toBe('PATCHED');
  });

  it.each([
    ["PATCH to another app's name", 'PATCH', { name: 'acme mobile' }, 409, 'conflict'],
    ['PATCH with an empty name', 'PATCH', { name: '' }, 400, 'validation_error'],
    ['PATCH with a bad origin', 'PATCH', { allowedOrigins: ['ftp:/x'] }, 400, 'validation_error'],
  ])('%s is %i', async (_label, method, body, status, code) => {
    const { body: created } = await svc.request('POST', '/apps', { body: { name: `Target ${Math.random()}` } });
    const res = await svc.request(method, `/apps/${created.data.id}`, { body });
    expectError(res, status, code);
    expect((await svc.request('GET', `/apps/${created.data.id}`)).body.data).toEqual(created.data);
  });

  it('deletes an app (200 with deleted: true); afterwards it is 404 and its name is free', async () => {
    const { body } = await svc.request('POST', '/apps', { body: { name: 'Doomed' } });
    const id = body.data.id as string;
    const deleted = await svc.request('DELETE', `/apps/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id, deleted: true } });
    expectError(await svc.request('GET', `/apps/${id}`), 404, 'not_found');
    expectError(await svc.request('DELETE', `/apps/${id}`), 404, 'not_found');
    expect((await svc.request('POST', '/apps', { body: { name: 'doomed' } })).status).toBe(201);
  });

  it.each([
    ['GET', undefined],
    ['PATCH', { name: 'x' }],
    ['DELETE', undefined],
  ])('%s /apps/<unknown id> is 404 not_found', async (method, body) => {
    expectError(await svc.request(method, '/apps/app_doesNotExist00000000', body === undefined ? {} : { body }), 404, 'not_found');
  });

  describe('pagination and search', () => {
    let total = 0;
    beforeAll(async () => {
      for (let i = 0; i < 7; i++) {
        const res = await svc.request('POST', '/apps', { body: { name: `Paged ${i}` } });
        expect(res.status).toBe(201);
      }
      total = (await svc.request('GET', '/apps')).body.total;
    });

    it('walks every page with page_size 4: hasMore, total and no repeats', async () => {
      const seen: string[] = [];
      const pages = Math.ceil(total / 4);
      for (let page = 1; page <= pages + 1; page++) {
        const res = await svc.request('GET', `/apps?page=${page}&page_size=4`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ total, page, pageSize: 4, hasMore: page * 4 < total });
        expect(res.body.data.length).toBe(Math.max(0, Math.min(4, total - (page - 1) * 4)));
        seen.push(...res.body.data.map((a: { id: string }) => a.id));
      }
      expect(new Set(seen).size).toBe(total);
      expect(seen.length).toBe(total);
    });

    it.each([
      ['Paged', 7],
      ['paged 3', 1],
      ['ACME', 3],
      ['nothing like it', 0],
    ])('search=%s matches %i apps by name, case-insensitively', async (search, count) => {
      const res = await svc.request('GET', `/apps?search=${encodeURIComponent(search)}&page_size=100`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(count);
      expect(res.body.data).toHaveLength(count);
      for (const app of res.body.data) expect(app.name.toLowerCase()).toContain(search.toLowerCase());
    });

    it.each([
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page_size=abc', 'page_size'],
      ['page_size=-1', 'page_size'],
      ['page_size=1.5', 'page_size'],
      ['page_size=', 'page_size'],
      ['page=0', 'page'],
      ['page=-2', 'page'],
      ['page=two', 'page'],
      ['page=1.5', 'page'],
    ])('%s is 400 validation_error for %s', async (query, path) => {
      const res = await svc.request('GET', `/apps?${query}`);
      expectError(res, 400, 'validation_error', [path]);
      expect(res.body.details[0].in).toBe('query');
    });
  });
});

// Over a real socket: a streamed body, a request with no content type at all, the listener's answers.
describe('HTTP plumbing (driven through /apps)', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  it.each([
    ['malformed JSON', '{"name": "x"', 'application/json'],
    ['a trailing comma', '{"name": "x",}', 'application/json'],
    ['text/plain', '{"name": "x"}', 'text/plain'],
    ['form encoding', 'name=x', 'application/x-www-form-urlencoded'],
    ['no content type', '{"name": "x"}', undefined],
  ])('POST with %s is 400 invalid_json', async (_label, rawBody, contentType) => {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    // fetch adds text/plain to a string body without a content type; a raw request can leave it out.
    const res = contentType === undefined ? await rawPost(`${svc.baseUrl}/apps`, rawBody) : await svc.request('POST', '/apps', { rawBody, headers });
    expectError(res, 400, 'invalid_json');
    expect((await svc.request('GET', '/apps?search=x')).body.total).toBe(0);
  });

  it('accepts JSON sent with a charset parameter', async () => {
    const res = await svc.request('POST', '/apps', { rawBody: '{"name":"Charset"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(201);
  });

  it('answers 413 payload_too_large for a body over 1 MiB, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'big', description: 'x'.repeat(1024 * 1024) });
    expectError(await svc.request('POST', '/apps', { rawBody: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
    const streamed = await postChunked(`${svc.baseUrl}/apps`, ACME_KEY, 1024 * 1024 + 64 * 1024);
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe('payload_too_large');
    // Just under the limit is parsed (and then judged by the schema, not the size).
    const under = JSON.stringify({ name: 'under', description: 'x'.repeat(1024 * 1024 - 100) });
    expectError(await svc.request('POST', '/apps', { rawBody: under, headers: { 'content-type': 'application/json' } }), 400, 'validation_error', [
      'description',
    ]);
  });

  it('echoes a sent x-request-id and makes one up otherwise, on successes and errors alike', async () => {
    const echoed = await svc.request('GET', '/apps', { headers: { 'x-request-id': 'trace-123.abc:9' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123.abc:9');
    const onError = await svc.request('GET', '/apps/app_nope', { headers: { 'x-request-id': 'err-1' } });
    expect(onError.status).toBe(404);
    expect(onError.headers.get('x-request-id')).toBe('err-1');
    const made = await svc.request('GET', '/apps');
    expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]+$/);
    // A header that could smuggle text into logs is replaced, not echoed.
    const unsafe = await svc.request('GET', '/apps', { headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it.each([
    ['GET', '/v1/nothing-here', ACME_KEY],
    ['GET', '/nothing-here', null],
  ])('%s %s is 404 not_found in the error envelope', async (method, path, key) => {
    const res = await svc.request(method, `${svc.origin}${path}`, { key });
    expectError(res, 404, 'not_found');
  });

  it.each([
    ['PUT', '/v1/apps', ACME_KEY, 'GET, HEAD, POST'],
    ['POST', '/healthz', null, 'GET, HEAD'],
  ])('%s %s, a method its path lacks, is 405 method_not_allowed with Allow', async (method, path, key, allow) => {
    const res = await svc.request(method, `${svc.origin}${path}`, { key });
    expectError(res, 405, 'method_not_allowed');
    for (const allowed of allow.split(', ')) expect(res.headers.get('allow')?.split(', ')).toContain(allowed);
  });

  it('answers every JSON body as application/json; charset=utf-8', async () => {
    for (const [method, path, options] of [
      ['GET', '/apps', {}],
      ['POST', '/apps', { body: { name: 'Ctype' } }],
      ['GET', '/apps', { key: null }],
      ['POST', '/apps', { body: {} }],
      ['GET', '/v1/openapi.json', { key: null }],
    ] as const) {
      const res = await svc.request(method, path, options);
      expect(res.headers.get('content-type'), `${method} ${path} → ${res.status}`).toBe(JSON_UTF8);
    }
  });
});

/** A POST without any content-type header (fetch would add text/plain). */
function rawPost(url: string, body: string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'x-api-key': ACME_KEY, 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text), text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
