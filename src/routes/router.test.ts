/**
 * newRouter()'s openapi(): a route that takes only a query and path parameters is checked at
 * once, so that a GET whose steps all answer at once is answered without a promise, and to the
 * same rules and errors as @hono/zod-openapi's validators; other routes go to those validators.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../services/seed.js';
import { ACME_KEY } from '../test-support/harness.js';
import { newRouter } from './router.js';

const Query = z.object({ n: z.string().regex(/^\d+$/).optional(), tag: z.union([z.string(), z.array(z.string())]).optional() });
const Params = z.object({ id: z.string().min(3) });
const answer = { 200: { description: 'ok', content: { 'application/json': { schema: z.object({}) } } } };

/** A router with one GET route of each kind, answering what it was given; errors as the app answers them. */
function router(params: z.ZodType = Params) {
  const app = newRouter()
    .openapi(createRoute({ method: 'get', path: '/things/{id}', request: { query: Query, params: params as typeof Params }, responses: answer }), (c) =>
      c.json({ query: c.req.valid('query'), params: c.req.valid('param') }, 200),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/things',
        request: { body: { content: { 'application/json': { schema: z.object({ name: z.string() }) } }, required: true } },
        responses: answer,
      }),
      (c) => c.json({ body: c.req.valid('json') }, 200),
    );
  app.onError((error, c) => c.json({ error: error.message, ...(error as { toBody?: () => object }).toBody?.() }, 400));
  return app;
}

describe('newRouter()', () => {
  it('checks a query and path parameters as the validators of @hono/zod-openapi would read them', async () => {
    const res = await router().request('/things/abc?n=12&tag=a&tag=b');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ query: { n: '12', tag: ['a', 'b'] }, params: { id: 'abc' } });
  });

  it('answers a bad query or parameter with validation_error, saying where', async () => {
    const query = await router().request('/things/abc?n=x');
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'n', in: 'query' }] });
    const param = await router().request('/things/ab');
    expect(await param.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'id', in: 'path' }] });
  });

  it('still checks a schema that needs an async parse', async () => {
    const slow = Params.refine(async ({ id }) => Promise.resolve(id !== 'bad'), { message: 'refused', path: ['id'] });
    expect((await router(slow).request('/things/good')).status).toBe(200);
    const refused = await router(slow).request('/things/bad');
    expect(await refused.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'id', message: 'refused', in: 'path' }] });
  });

  it('leaves a route with a body to the validators of @hono/zod-openapi', async () => {
    const post = (body: string) => router().request('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await (await post('{"name":"x"}')).json()).toEqual({ body: { name: 'x' } });
    expect(await (await post('{"name":1}')).json()).toMatchObject({ code: 'validation_error', details: [{ path: 'name', in: 'body' }] });
  });

  it('describes both kinds of route in the OpenAPI document', () => {
    const paths = router().getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }).paths ?? {};
    expect(Object.keys(paths)).toEqual(['/things/{id}', '/things']);
    const parameters = (paths['/things/{id}']?.get?.parameters ?? []) as Array<{ name: string; in: string }>;
    expect(parameters.map((p) => `${p.in} ${p.name}`).sort()).toEqual(['path id', 'query n', 'query tag']);
  });

  it('lets the app answer a GET with a query without a promise', async () => {
    const rt = await createRuntime({ inMemory: true });
    try {
      await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
      const answered = createApp(rt).fetch(new Request('http://localhost/v1/users?page=1&page_size=2&search=a', { headers: { 'x-api-key': ACME_KEY } }));
      expect(answered).toBeInstanceOf(Response);
      expect(((await (answered as Response).json()) as { data: unknown[] }).data).toHaveLength(2);
    } finally {
      await rt.close();
    }
  });
});
