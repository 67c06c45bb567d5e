// The limit the emulator is measured against: a bare Hono app on @hono/node-server that
// answers a fixed JSON document (GET) and parses a JSON body to answer 201 (POST), storing
// nothing. Plain JavaScript so its cold start carries no compile step.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const user = {
  id: 'usr_4f8Qm2xZb7LkP1sT9vRa',
  email: 'alice@example.com',
  name: 'Alice Example',
  trustLevel: 'verified',
  partyId: `alice::1220${'ab'.repeat(32)}`,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};
const page = { data: Array.from({ length: 20 }, () => user), total: 10000, page: 1, pageSize: 20, hasMore: true };

const app = new Hono();
app.get('/healthz', (c) => c.json({ data: { status: 'ok' } }));
app.get('/v1/users/:id', (c) => c.json({ data: user }));
app.get('/v1/users', (c) => c.json(page));
app.post('/v1/users', async (c) => {
  const body = await c.req.json();
  return c.json({ data: { ...user, email: body.email } }, 201);
});

// BARE_BATCHED=1: the same app with svc's own answer batching (src/answers/batched-response.ts, as
// built into dist/), so that what svc gains from it is not counted as svc's lead over bare Hono.
const serverOptions = process.env.BARE_BATCHED === '1' ? { ServerResponse: (await import('../../dist/answers/batched-response.js')).BatchedResponse } : {};

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1', serverOptions });
