import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { listen } from './server.js';

describe('listen()', () => {
  it('serves the app on a port and closes', async () => {
    const app = new Hono().get('/', (c) => c.text('ok'));
    const server = await listen(app, { port: 0, host: '127.0.0.1' });
    try {
      expect(await (await fetch(server.origin)).text()).toBe('ok');
    } finally {
      await server.close();
    }
  });
});
