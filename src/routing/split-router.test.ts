/**
 * The app's router (split-router.ts): the same answers as Hono's own SmartRouter and
 * TrieRouter, in the same order, through the same error and not-found handlers.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { H, RouterRoute } from 'hono/types';
import { describe, expect, it } from 'vitest';
import { SplitRouter, fixedPrefix, partOfRoute } from './split-router.js';

/** An app that writes down the order its handlers ran in, on the router given (split: with the split made, or still on its first TrieRouter). */
function appOn(router: 'default' | 'trie' | 'split' | 'split-interim') {
  const onError = (error: Error, c: Context) => c.json({ error: error.message }, 500);
  const split = new SplitRouter<[H, RouterRoute]>();
  const app = router === 'default' ? new Hono() : new Hono({ router: router === 'trie' ? new TrieRouter() : split });
  const trace =
    (name: string): MiddlewareHandler =>
    async (c, next) => {
      const seen = (c.get('seen' as never) as string[] | undefined) ?? [];
      c.set('seen' as never, [...seen, name] as never);
      await next();
    };
  app.onError(onError);
  app.notFound((c) => c.json({ error: 'no route', seen: c.get('seen' as never) ?? [] }, 404));
  app.use('*', trace('all'));
  app.use('/v1/*', trace('v1'));
  app.use('/v1/users/me/wallet/*', trace('wallet'));
  app.get('/v1/users/me/wallet', (c) => c.json({ route: 'wallet', seen: c.get('seen' as never) }));
  app.get('/v1/users/:id', (c) => c.json({ route: 'user', id: c.req.param('id'), seen: c.get('seen' as never) }));
  app.post('/v1/guests/cleanup', (c) => c.json({ route: 'cleanup', seen: c.get('seen' as never) }));
  app.post('/v1/guests/:id/convert', (c) => c.json({ route: 'convert', id: c.req.param('id'), seen: c.get('seen' as never) }));
  app.get('/v1/boom', () => {
    throw new Error('boom');
  });
  app.get('/v1/late-boom', async () => {
    await Promise.resolve();
    throw new Error('late boom');
  });
  if (router === 'split') split.split();
  return app;
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/v1/users/usr_1'],
  ['GET', '/v1/users/me/wallet'],
  ['GET', '/v1/users/me'],
  ['POST', '/v1/guests/cleanup'],
  ['POST', '/v1/guests/gst_1/convert'],
  ['POST', '/v1/guests/cleanup/convert'],
  ['GET', '/v1/boom'],
  ['GET', '/v1/late-boom'],
  ['GET', '/v1/nothing'],
  ['GET', '/elsewhere'],
  ['HEAD', '/v1/users/usr_2'],
  ['DELETE', '/v1/users/usr_3'],
];

async function answers(app: Hono): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [method, path] of REQUESTS) {
    const response = await app.request(path, { method });
    out.push([method, path, response.status, method === 'HEAD' ? null : await response.text()]);
  }
  return out;
}

describe('SplitRouter', () => {
  it('answer every request as Hono does on its own routers, handlers in the order they were added', async () => {
    const expected = await answers(appOn('default'));
    expect(await answers(appOn('trie'))).toEqual(expected);
    expect(await answers(appOn('split'))).toEqual(expected);
    expect(await answers(appOn('split-interim'))).toEqual(expected);
    expect(expected).toContainEqual(['GET', '/v1/users/me/wallet', 200, JSON.stringify({ route: 'wallet', seen: ['all', 'v1', 'wallet'] })]);
    expect(expected).toContainEqual(['POST', '/v1/guests/gst_1/convert', 200, JSON.stringify({ route: 'convert', id: 'gst_1', seen: ['all', 'v1'] })]);
  });

  it('uses RegExpRouter for what it takes and a trie for the routes it refuses', async () => {
    const router = new SplitRouter<string>();
    router.add('ALL', '/v1/*', 'v1');
    router.add('ALL', '/v1/users/me/wallet/*', 'wallet mw');
    router.add('GET', '/v1/users/me/wallet', 'wallet');
    router.add('GET', '/v1/users/:id', 'user');
    router.split();
    const names = (method: string, path: string): string[] => {
      const [entries] = router.match(method, path);
      return entries.map(([name]) => name);
    };
    expect(names('GET', '/v1/users/usr_1')).toEqual(['v1', 'user']);
    expect(names('GET', '/v1/users/me/wallet')).toEqual(['v1', 'wallet mw', 'wallet']);
    expect(names('GET', '/v1/users/me/wallet/x')).toEqual(['v1', 'wallet mw']);
    expect(names('GET', '/v2')).toEqual([]);
    expect(fixedPrefix('/v1/users/me/wallet/*')).toBe('/v1/users/me/wallet');
    expect(fixedPrefix('/v1/guests/:id/convert')).toBe('/v1/guests');
    expect(fixedPrefix('/v1/items/:id?')).toBe('/v1/items');
    expect(fixedPrefix('/v1/guests/cleanup')).toBe('/v1/guests/cleanup');
  });

  it('takes routes after it has answered, and answers them in the order of add() from then on', () => {
    for (const when of ['after the split', 'before the split'] as const) {
      const router = new SplitRouter<string>();
      router.add('ALL', '/v1/*', 'v1');
      router.add('GET', '/v1/users/:id', 'user');
      const names = (method: string, path: string): string[] => router.match(method, path)[0].map(([name]) => name);
      expect(names('GET', '/v1/apps/app_1')).toEqual(['v1']);
      if (when === 'after the split') router.split();
      // An area added on its first request, with a static route beside a parameter (the trie's part).
      router.add('ALL', '/v1/apps/*', 'apps mw');
      router.add('GET', '/v1/apps/:id', 'app');
      router.add('GET', '/v1/users/me', 'me');
      expect(names('GET', '/v1/apps/app_1'), when).toEqual(['v1', 'apps mw', 'app']);
      // A late route comes after every earlier one that matches too, as Hono's own routers order them.
      expect(names('GET', '/v1/users/me'), when).toEqual(['v1', 'user', 'me']);
      expect(names('GET', '/v1/users/usr_1'), when).toEqual(['v1', 'user']);
      router.split();
      expect(names('GET', '/v1/apps/app_1'), `${when}, split again`).toEqual(['v1', 'apps mw', 'app']);
      expect(names('GET', '/v1/users/me'), `${when}, split again`).toEqual(['v1', 'user', 'me']);
      expect(names('GET', '/v1/users/usr_1'), `${when}, split again`).toEqual(['v1', 'user']);
    }
  });

  it('matches each request among its part of the routes and those shared by every part, as a TrieRouter of them all answers', () => {
    const routes: Array<[string, string]> = [
      ['ALL', '*'],
      ['ALL', '/v1/*'],
      ['GET', '/'],
      ['GET', '/healthz'],
      ['GET', '/v1/users'],
      ['GET', '/v1/users/:id'],
      ['POST', '/v1/users/:id/sessions'],
      ['ALL', '/v1/apps/*'],
      ['GET', '/v1/apps/:id?'],
      ['GET', '/v1/:area/count'],
      ['GET', '/:page'],
      ['GET', '/_emulator/ui/*'],
      ['GET', '/v1/use*'],
    ];
    const split = new SplitRouter<string>();
    const trie = new TrieRouter<string>();
    for (const [method, path] of routes) {
      split.add(method, path, `${method} ${path}`);
      trie.add(method, path, `${method} ${path}`);
    }
    split.split();
    const answer = (router: SplitRouter<string> | TrieRouter<string>, method: string, path: string): unknown[] => {
      const [entries, stash] = router.match(method, path) as [[string, Record<string, number | string>][], string[]?];
      return entries.map(([name, params]) => [name, Object.fromEntries(Object.entries(params).map(([key, at]) => [key, stash ? stash[at as number] : at]))]);
    };
    const paths = ['/', '/x', '/healthz', '/healthz/x', '/v1', '/v1/users', '/v1/users/', '/v1/users/usr_1', '/v1/users/usr_1/sessions'];
    paths.push('/v1/usersx', '/v1/apps', '/v1/apps/app_1', '/v1/apps/app_1/x', '/v1/billing/count', '/_emulator/ui', '/_emulator/ui/x', '/_emulator');
    for (const path of paths) {
      for (const method of ['GET', 'POST']) expect(answer(split, method, path), `${method} ${path}`).toEqual(answer(trie, method, path));
    }
    expect(answer(split, 'GET', '/v1/users/usr_1')).toEqual([
      ['ALL *', {}],
      ['ALL /v1/*', {}],
      ['GET /v1/users/:id', { id: 'usr_1' }],
      ['GET /v1/use*', {}],
    ]);
    expect(partOfRoute('/v1/users/:id')).toBe('/v1/users');
    expect(partOfRoute('/healthz')).toBe('/healthz');
    expect([partOfRoute('/v1/*'), partOfRoute('*'), partOfRoute('/v1/:area/count'), partOfRoute('/v1/use*')]).toEqual([null, null, null, null]);
  });

  it('finds a wildcard route that went to the trie for the path without its last slash, as Hono does', () => {
    const router = new SplitRouter<string>();
    router.add('GET', '/v1/users/:id', 'user');
    // Beside /v1/users/:id, RegExpRouter refuses it: only the trie holds it, and /x/* matches /x.
    router.add('ALL', '/v1/users/me/wallet/*', 'wallet mw');
    router.split();
    const names = (path: string): string[] => router.match('GET', path)[0].map(([name]) => name);
    expect(names('/v1/users/me/wallet')).toEqual(['wallet mw']);
    expect(names('/v1/users/me/wallet/x')).toEqual(['wallet mw']);
    expect(names('/v1/users/me/walletx')).toEqual([]);
    expect(names('/v1/users/usr_1')).toEqual(['user']);
  });
});
