/**
 * ChainRouter: Hono's compose() rules (order, errors to the app's handler at the step that
 * threw, next() once), synchronous where every step is.
 */
import { Hono } from 'hono';
import type { H, RouterRoute } from 'hono/types';
import { describe, expect, it } from 'vitest';
import { ChainRouter } from './chain-router.js';
import { SplitRouter } from './split-router.js';

const router = (onError: ConstructorParameters<typeof ChainRouter>[1]) => new ChainRouter(new SplitRouter<[H, RouterRoute]>(), onError);

describe('ChainRouter', () => {
  it('answers synchronously when every step does, and through a promise when one does not', async () => {
    const app = new Hono({ router: router((error, c) => c.text(error.message, 500)) });
    app.use('*', (c, next) => next());
    app.get('/sync', (c) => c.text('sync'));
    app.get('/async', async (c) => c.text('async'));
    const sync = app.fetch(new Request('http://x/sync'));
    expect(sync).toBeInstanceOf(Response);
    expect(await (sync as Response).text()).toBe('sync');
    const later = app.fetch(new Request('http://x/async'));
    expect(later).toBeInstanceOf(Promise);
    expect(await (await later).text()).toBe('async');
  });

  it('hands an error to the error handler at the step that threw, so the middleware around it see an answer', async () => {
    const seen: string[] = [];
    const app = new Hono({ router: router((error, c) => c.text(`handled ${error.message}`, 418)) });
    app.onError((error, c) => c.text(`handled ${error.message}`, 418));
    app.use('*', async (c, next) => {
      await next();
      seen.push(`after: ${c.res.status}`);
    });
    app.get('/throws', () => {
      throw new Error('no');
    });
    const response = await app.request('/throws');
    expect([response.status, await response.text(), seen]).toEqual([418, 'handled no', ['after: 418']]);
  });

  it('fails a middleware that calls next() twice, as compose() does', async () => {
    const app = new Hono({ router: router((error, c) => c.text(error.message, 500)) });
    app.use('*', async (_c, next) => {
      await next();
      await next();
    });
    app.get('/', (c) => c.text('once'));
    const response = await app.request('/');
    expect([response.status, await response.text()]).toEqual([500, 'next() called multiple times']);
  });
});
