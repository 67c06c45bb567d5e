import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from 'svc';
import { ok, setUp } from './support.mjs';

let svc;
beforeAll(async () => (svc = await setUp('tenants', ['user.created'])));
afterAll(() => svc.receiver.close());

it('keeps this worker apart: another tenant does not see its users, and a reset of it leaves the others', async () => {
  ok(await svc.client.users.create({ email: 'hidden@example.test' }));
  await svc.client.emulator.waitForDelivery({ tenant: svc.tenant.id, type: 'user.created', match: { email: 'hidden@example.test' } });
  const other = createClient({ baseUrl: process.env.SVC_URL, apiKey: process.env.SVC_SECOND_API_KEY });
  expect(ok(await other.users.list({ search: 'hidden@example.test' })).total).toBe(0);
  ok(await svc.client.emulator.tenants.reset(svc.tenant.id));
  expect(ok(await svc.client.users.list({ search: 'hidden@example.test' })).total).toBe(0);
  const { data: calls } = ok(await svc.client.emulator.requests({ tenant: svc.tenant.id, method: 'POST', path: '/v1/users' }));
  expect(calls).toEqual([]);
});
