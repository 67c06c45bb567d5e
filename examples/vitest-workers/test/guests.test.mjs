import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, setUp } from './support.mjs';

let svc;
beforeAll(async () => (svc = await setUp('guests', ['guest.created', 'guest.converted'])));
afterAll(() => svc.receiver.close());

it('creates and converts a guest, receiving both events', async () => {
  const { data: guest } = ok(await svc.client.guests.create());
  await svc.client.emulator.waitForDelivery({ tenant: svc.tenant.id, type: 'guest.created' });
  ok(await svc.client.guests.convert(guest.id, { email: 'grace@example.test' }));
  const { event } = await svc.client.emulator.waitForDelivery({ tenant: svc.tenant.id, type: 'guest.converted' });
  expect(svc.receiver.received.some((r) => r.body.id === event.id)).toBe(true);
  const { data: calls } = ok(await svc.client.emulator.requests({ tenant: svc.tenant.id, path: '/v1/guests*' }));
  expect(calls.map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201', 'POST 200']);
});
