/**
 * deferredFetch(): the probes answered before the app is built, the app built once by the first
 * request that needs it and answering it (and every request after) alone, and a build that
 * fails answered in the error envelope and tried again.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { deferredFetch } from './deferred-app.js';

const probes = new Hono().get('/healthz', (c) => c.text('probe'));
const app = new Hono().get('/healthz', (c) => c.text('app')).get('/v1/things', (c) => c.text('things'));
const answer = async (fetch: ReturnType<typeof deferredFetch>, path: string): Promise<string> => (await fetch(new Request(`http://localhost${path}`))).text();

describe('deferredFetch()', () => {
  it('answers the probes without building the app, then builds it once for the requests that need it', async () => {
    let builds = 0;
    const fetch = deferredFetch(probes, () => Promise.resolve((builds++, app)), silentLogger);
    expect(await answer(fetch, '/healthz')).toBe('probe');
    expect(await answer(fetch, '/healthz?x=1')).toBe('probe');
    expect(builds).toBe(0);
    expect(await Promise.all([answer(fetch, '/v1/things'), answer(fetch, '/v1/things')])).toEqual(['things', 'things']);
    expect(builds).toBe(1);
    expect(await answer(fetch, '/healthz')).toBe('app');
  });

  it('answers a build that fails with a 500 in the envelope, with the request id, and tries again', async () => {
    let fail = true;
    const fetch = deferredFetch(probes, () => (fail ? Promise.reject(new Error('broken install')) : Promise.resolve(app)), silentLogger);
    const failed = await fetch(new Request('http://localhost/v1/things', { headers: { 'x-request-id': 'broken-1' } }));
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-request-id')).toBe('broken-1');
    expect(failed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await failed.json()) as { code: string }).code).toBe('internal_error');
    fail = false;
    expect(await answer(fetch, '/v1/things')).toBe('things');
  });
});
