import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { keptNextTickRecord, listen } from './server.js';

describe('listen()', () => {
  it("keeps one of Node's nextTick records for the life of the process", async () => {
    const app = new Hono().get('/', (c) => c.text('ok'));
    const first = await listen(app, { port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(first.origin)).status).toBe(200);
      const kept = keptNextTickRecord();
      // The shape server.ts relies on: the record process.nextTick() built, with its two
      // symbol keys, not some other resource. Should Node change it, this says so.
      expect(kept).not.toBeNull();
      expect(Object.getOwnPropertySymbols(kept).map(String)).toEqual(['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)']);
      expect(Object.keys(kept!)).toEqual(['callback', 'args']);

      const second = await listen(app, { port: 0, host: '127.0.0.1' });
      await second.close();
      expect(keptNextTickRecord()).toBe(kept);
    } finally {
      await first.close();
    }
  });
});
