import { afterAll, beforeAll, expect, it } from 'vitest';
import { ServiceError, unwrap } from 'svc';
import { ok, setUp } from './support.mjs';

let svc;
beforeAll(async () => (svc = await setUp('errors', ['user.created'])));
afterAll(() => svc.receiver.close());

it('answers a bad body in the error envelope, and the journal has the failed call', async () => {
  const result = await svc.client.users.create({ email: 'not-an-email' });
  expect(result.status).toBe(400);
  expect(() => unwrap(result)).toThrow(ServiceError);
  const { data: calls } = ok(await svc.client.emulator.requests({ tenant: svc.tenant.id, status: '4xx' }));
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/users', status: 400, requestBody: { email: 'not-an-email' } });
});

it('receives user.created for a valid user after the failure', async () => {
  ok(await svc.client.users.create({ email: 'linus@example.test' }));
  const { delivery } = await svc.client.emulator.waitForDelivery({ tenant: svc.tenant.id, type: 'user.created', match: { email: 'linus@example.test' } });
  expect(delivery.attempts.at(-1).statusCode).toBe(204);
  if (process.env.EXAMPLE_FAIL) expect('this run').toBe('made to fail on purpose');
});
