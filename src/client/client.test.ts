/**
 * The typed client, through the package entry: over undici against a real emulator port, and
 * in-process over an app with `app.request` as its fetch. Both speak to real parts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createClient, createRuntime, ServiceError, unwrap, verifySignature, schemas, type Client, type Runtime } from '../index.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../services/seed.js';
import { ACME_KEY, startTestEmulator, type TestEmulator } from '../test-support/harness.js';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { SERVED_OPERATIONS } from '../../test/spec-operations.js';

let svc: TestEmulator;
let rt: Runtime;
let receiver: TestReceiver;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  svc = await startTestEmulator();
  receiver = await startReceiver();
  rt = await createRuntime({ inMemory: true });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  const app = createApp(rt);
  clients['undici'] = createClient({ baseUrl: svc.baseUrl, apiKey: ACME_KEY });
  clients['in-process'] = createClient({ baseUrl: 'http://localhost/v1', apiKey: ACME_KEY, fetch: async (url, init) => app.request(url, init) });
});
afterAll(async () => {
  await svc.close();
  await receiver.close();
  await rt.close();
});

describe.each(['undici', 'in-process'])('createClient over %s', (transport) => {
  const client = (): Client => clients[transport]!;

  it('creates, reads, pages and deletes an app, typed from the schemas', async () => {
    const name = `client-${transport}-${Date.now()}`;
    const created = await client().apps.create({ name, allowedOrigins: ['http://localhost:3000'] });
    expect(created.status).toBe(201);
    const app = unwrap(created).data;
    expect(schemas.apps.App.parse(app).name).toBe(name);
    const page = unwrap(await client().apps.list({ search: name, page_size: 1 }));
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 1, hasMore: false });
    expect(page.data[0]?.id).toBe(app.id);
    expect(unwrap(await client().apps.delete(app.id)).data).toEqual({ id: app.id, deleted: true });
  });

  it('answers failures as results, and unwrap throws a ServiceError with status, code and details', async () => {
    const result = await client().users.create({ email: 'not-an-email' });
    expect(result.ok).toBe(false);
    expect(result.status).toBe(400);
    expect(result.request).toMatchObject({ method: 'POST', path: '/users' });
    const error = (() => {
      try {
        unwrap(result);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    expect((error as ServiceError).details[0]).toMatchObject({ path: 'email' });
  });

  it('sends no key when asked, and raw bodies as given', async () => {
    expect((await client().apps.list({}, { apiKey: null })).status).toBe(401);
    const raw = await client().request('POST', '/apps', { rawBody: '{oops', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect((raw.body as { code: string }).code).toBe('invalid_json');
  });

  it('registers a webhook whose test delivery verifies with the package signature function', async () => {
    const hook = unwrap(await client().webhooks.create({ url: receiver.url, events: ['user.created'] })).data;
    const before = receiver.received.length;
    const delivery = unwrap(await client().webhooks.test(hook.id)).data;
    expect(delivery.status).toBe('succeeded');
    const [received] = (await receiver.waitFor(before + 1)).slice(before);
    expect(() =>
      verifySignature({
        secret: hook.secret,
        body: received!.body,
        signature: received!.headers['x-service-signature'] as string,
        timestamp: received!.headers['x-service-timestamp'] as string,
      }),
    ).not.toThrow();
    unwrap(await client().webhooks.delete(hook.id));
  });

  it('reaches the control plane at the base URL origin', async () => {
    const clock = unwrap(await client().emulator.clock()).data;
    expect(schemas.control.ClockState.safeParse(clock).success).toBe(true);
  });
});

describe("the client's method names", () => {
  it('has one method per operation, named by its operationId in the OpenAPI document, and no other', () => {
    const client = clients['in-process']!;
    const functions = Object.entries(client)
      .filter(([name, value]) => typeof value === 'function' && name !== 'request')
      .map(([name]) => name);
    expect(functions.sort()).toEqual(SERVED_OPERATIONS.map((operation) => operation.operationId).sort());
  });

  it('sends each operation to its method and path', async () => {
    const client = clients['in-process']!;
    const sent = async (result: Promise<{ request: { method: string; path: string } }>) => (await result).request;
    expect(await sent(client.getApp('app_x'))).toMatchObject({ method: 'GET', path: '/apps/app_x' });
    expect(await sent(client.expireGuest('gst_x'))).toMatchObject({ method: 'DELETE', path: '/guests/gst_x' });
    expect(await sent(client.getKeyShares('st_x', 'wal_x'))).toMatchObject({ method: 'GET', path: '/mpc/shares/wal_x' });
    expect(await sent(client.verifyCustomDomain())).toMatchObject({ method: 'POST', path: '/custom-domains/verify' });
    expect(unwrap(await client.getOpenApiDocument({ apiKey: null })).openapi).toBe('3.1.0');
    expect(client.apps.list).toBe(client.listApps);
  });
});
