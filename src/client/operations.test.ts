/**
 * The client is made from the route definitions: every operation the routes serve (read from
 * the OpenAPI document they make) has a client method, and no method names an operation that
 * no route serves; each method sends its operation's method and path, with the token its
 * security asks for, the path parameters in order, and the body or query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import { OPERATIONS, type Operation } from '../operations/index.js';
import type { Runtime } from '../runtime.js';
import { createClient, type Client } from './index.js';

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

let rt: Runtime;
/** operationId → `METHOD /path` (below /v1), as the routes describe them in the document. */
const served = new Map<string, string>();

beforeAll(async () => {
  rt = await createRuntime({ inMemory: true });
  const app = createApp(rt);
  const document = (await (await app.request('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (HTTP_METHODS.has(method) && operation.operationId !== undefined)
        served.set(operation.operationId, `${method.toUpperCase()} ${path.replace(/^\/v1/, '')}`);
    }
  }
});
afterAll(() => rt.close());

/** A client whose every call is answered `{}` and recorded. */
function recordingClient(): { client: Client; sent: Array<{ method: string; url: string; headers: Record<string, string>; body: string | undefined }> } {
  const sent: Array<{ method: string; url: string; headers: Record<string, string>; body: string | undefined }> = [];
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

describe('the client made from the route definitions', () => {
  it('has a method for every operation the routes serve, and serves no operation the routes do not', () => {
    const { client } = recordingClient();
    const methods = Object.keys(OPERATIONS).filter((operationId) => typeof (client as Record<string, unknown>)[operationId] === 'function');
    expect(served.size).toBeGreaterThan(50);
    expect(methods.sort()).toEqual([...served.keys()].sort());
  });

  it('takes each operation’s name, method and path from its route', () => {
    for (const [operationId, operation] of Object.entries(OPERATIONS)) expect(operation.config.operationId).toBe(operationId);
    const table = Object.entries(OPERATIONS).map(([operationId, operation]): [string, string] => [operationId, `${operation.method} ${operation.path}`]);
    expect(new Map(table)).toEqual(served);
  });

  it('sends each operation with its token, path parameters, and body or query, in that order', async () => {
    const { client, sent } = recordingClient();
    const calls = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const operations: Array<[string, Operation]> = Object.entries(OPERATIONS);
    for (const [operationId, operation] of operations) {
      const security = (operation.config.security ?? []).flatMap((requirement) => Object.keys(requirement));
      const token = security.includes('SessionAuth') || security.includes('DelegatedSessionAuth');
      const params = operation.path.match(/\{\w+\}/g) ?? [];
      const request = operation.config.request;
      const takes = request?.body !== undefined ? 'body' : request?.query !== undefined ? 'query' : null;
      // The four calls that take their one field are sent through the same method; they are checked in client.test.ts.
      if (['verifyMfaSetup', 'registerCustomDomain', 'getAnalytics', 'executeTransaction'].includes(operationId)) continue;
      const args = [...(token ? ['st_token'] : []), ...params.map((_, i) => `p ${i}`), ...(takes === null ? [] : [{ probe: 'x' }])];
      await calls[operationId]!(...args);
      const last = sent.at(-1)!;
      const path = params.reduce((text, param, i) => text.replace(param, encodeURIComponent(`p ${i}`)), operation.path);
      expect(`${last.method} ${new URL(last.url).pathname.replace(/^\/v1/, '')}`, operationId).toBe(`${operation.method} ${path}`);
      expect(last.headers['authorization'], operationId).toBe(token ? 'Bearer st_token' : undefined);
      if (takes === 'body') expect(JSON.parse(last.body!), operationId).toEqual({ probe: 'x' });
      if (takes === 'query') expect(new URL(last.url).searchParams.get('probe'), operationId).toBe('x');
    }
  });
});
