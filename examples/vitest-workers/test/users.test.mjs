import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, setUp } from './support.mjs';

let svc;
beforeAll(async () => (svc = await setUp('users', ['user.created'])));
afterAll(() => svc.receiver.close());

it('creates a user, receives user.created, and finds the call in the journal', async () => {
  const { data: user } = ok(await svc.client.users.create({ email: 'ada@example.test', name: 'Ada' }));
  const { event, delivery } = await svc.client.emulator.waitForDelivery({ tenant: svc.tenant.id, type: 'user.created', match: { email: 'ada@example.test' } });
  expect(delivery.status).toBe('succeeded');
  expect(svc.receiver.received.map((r) => r.headers['x-service-event-id'])).toContain(event.id);
  const { data: calls } = ok(await svc.client.emulator.requests({ tenant: svc.tenant.id, method: 'POST', path: '/v1/users' }));
  expect(calls.map((call) => call.responseBody.data.id)).toEqual([user.id]);
});

it('pages through the users of its own tenant only', async () => {
  const first = ok(await svc.client.users.list({ page_size: 5 }));
  expect(first.pageSize).toBe(5);
  expect(first.total).toBeGreaterThan(5);
  const second = ok(await svc.client.users.list({ page_size: 5, page: 2 }));
  expect(second.data.map((u) => u.id)).not.toContain(first.data[0].id);
});
