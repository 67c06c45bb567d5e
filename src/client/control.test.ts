/**
 * `client.emulator` is made from the control plane's route definitions: every operation its
 * document lists has a method, named by its operationId; each method sends its operation's
 * method and path below /_emulator, without the API key; and every call that changes something
 * carries `x-svc-control: 1`, which the reads do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import { CONTROL_OPERATIONS, type Operation } from '../operations/index.js';
import type { Runtime } from '../runtime.js';
import { CONTROL_REQUEST_HEADER } from '../schemas/control.js';
import { createClient, unwrap } from './index.js';

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

let rt: Runtime;
let app: ReturnType<typeof createApp>;
/** operationId → `METHOD /path` (below /_emulator), as the control plane's document lists them. */
const served = new Map<string, string>();

beforeAll(async () => {
  rt = await createRuntime({ inMemory: true });
  app = createApp(rt);
  const document = (await (await app.request('/_emulator/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (HTTP_METHODS.has(method) && operation.operationId !== undefined)
        served.set(operation.operationId, `${method.toUpperCase()} ${path.replace(/^\/_emulator/, '')}`);
    }
  }
});
afterAll(() => rt.close());

type Sent = { method: string; url: string; headers: Record<string, string>; body: string | undefined };

/** A client whose every call is answered `{}` and recorded. */
function recordingClient() {
  const sent: Sent[] = [];
  const client = createClient({
    baseUrl: 'http://client.test/v1',
    apiKey: 'key',
    fetch: async (url, init) => {
      sent.push({ method: init.method ?? 'GET', url, headers: init.headers as Record<string, string>, body: init.body as string | undefined });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, sent };
}

describe('client.emulator, made from the control plane route definitions', () => {
  it('has a method for every operation the control plane serves, and none for an operation it does not', () => {
    const { client } = recordingClient();
    const methods = Object.keys(CONTROL_OPERATIONS).filter((operationId) => typeof (client.emulator as Record<string, unknown>)[operationId] === 'function');
    expect(served.size).toBeGreaterThan(20);
    expect(methods.sort()).toEqual([...served.keys()].sort());
    const table = Object.entries(CONTROL_OPERATIONS).map(([operationId, operation]): [string, string] => [
      operationId,
      `${operation.method} ${operation.path}`,
    ]);
    expect(new Map(table)).toEqual(served);
  });

  it('sends each operation to its method and path, without the API key, with the control header on every change', async () => {
    const { client, sent } = recordingClient();
    const calls = client.emulator as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const operations: Array<[string, Operation]> = Object.entries(CONTROL_OPERATIONS);
    for (const [operationId, operation] of operations) {
      const params = operation.path.match(/\{\w+\}/g) ?? [];
      const request = operation.config.request;
      const takes = request?.body !== undefined ? 'body' : request?.query !== undefined ? 'query' : null;
      await calls[operationId]!(...params.map((_, i) => `p ${i}`), ...(takes === null ? [] : [{ probe: 'x' }]));
      const last = sent.at(-1)!;
      const path = params.reduce((text, param, i) => text.replace(param, encodeURIComponent(`p ${i}`)), operation.path);
      expect(`${last.method} ${new URL(last.url).pathname}`, operationId).toBe(`${operation.method} /_emulator${path}`);
      expect(last.headers['x-api-key'], operationId).toBeUndefined();
      expect(last.headers[CONTROL_REQUEST_HEADER], operationId).toBe(operation.method === 'GET' ? undefined : '1');
      if (takes === 'body') expect(JSON.parse(last.body!), operationId).toEqual({ probe: 'x' });
      if (takes === 'query') expect(new URL(last.url).searchParams.get('probe'), operationId).toBe('x');
    }
    await client.emulator.request('DELETE', '/faults');
    expect(sent.at(-1)!.headers[CONTROL_REQUEST_HEADER]).toBe('1');
  });

  it('keeps the short names, each sending what its operation takes', async () => {
    const { client, sent } = recordingClient();
    await client.emulator.advance('90s');
    expect([sent.at(-1)!.method, new URL(sent.at(-1)!.url).pathname, sent.at(-1)!.body]).toEqual(['POST', '/_emulator/clock/advance', '{"by":"90s"}']);
    await client.emulator.requests({ requestId: 'r1', status: 404, limit: 5 });
    expect(new URL(sent.at(-1)!.url).search).toBe('?status=404&request_id=r1&limit=5');
    await client.emulator.deliveries({ eventId: 'evt_1', status: 'dead' });
    expect(new URL(sent.at(-1)!.url).search).toBe('?event_id=evt_1&status=dead');
    await client.emulator.export('ten_1');
    expect(new URL(sent.at(-1)!.url).search).toBe('?tenant=ten_1');
    await client.emulator.clearRequests();
    expect([sent.at(-1)!.method, new URL(sent.at(-1)!.url).search]).toEqual(['DELETE', '']);
  });

  it('answers with the types of its declarations, in-process', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1/v1', fetch: (url, init) => Promise.resolve(app.request(url, init)) });
    const fault = unwrap(await client.emulator.faults.add({ path: '/users', status: 503, count: 2 })).data;
    expect(fault).toMatchObject({ path: '/users', status: 503, remaining: 2 });
    expect(unwrap(await client.emulator.faults.list()).data.map((listed) => listed.id)).toEqual([fault.id]);
    expect(unwrap(await client.emulator.faults.clear()).data.cleared).toBe(1);
    const refused = await client.emulator.addFault({ path: 'users', count: 1 });
    expect(refused.ok ? null : refused.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ path: 'path', in: 'body' })] });
  });
});
