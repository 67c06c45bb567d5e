/**
 * GET /_emulator/openapi.json: an OpenAPI 3.1 document of the control plane that a standard
 * validator accepts, whose operations each have an operationId, a description and a tag, and
 * whose paths are exactly the routes the control plane serves (the dashboard under /ui aside).
 */
import { networkInterfaces } from 'node:os';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';
import type { Runtime } from '../src/runtime.js';
import { sendRequest, startTestEmulator } from '../src/test-support/harness.js';

const BASE = '/_emulator';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Operation = { operationId?: string; description?: string; tags?: string[]; security?: unknown[] };
type OpenApiDocument = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  tags: Array<{ name: string; description?: string }>;
  components: { securitySchemes?: Record<string, unknown> };
};

/** Every operation of the document as `METHOD path`, with the operation. */
function operationsOf(doc: OpenApiDocument): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => HTTP_METHODS.has(key))
      .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

describe('the control plane OpenAPI document', () => {
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    rt = await createRuntime({ inMemory: true });
    app = createApp(rt);
    const answer = await app.request(`${BASE}/openapi.json`);
    expect(answer.status).toBe(200);
    doc = (await answer.json()) as OpenApiDocument;
  });
  afterAll(() => rt.close());

  it('is OpenAPI 3.1 that @readme/openapi-parser validates', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : (result.errors ?? []).map((error) => error.message)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('gives every operation an operationId, a description and a tag the document declares', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(20);
    const tags = new Set(doc.tags.map((tag) => tag.name));
    const ids = new Set<string>();
    for (const [name, operation] of operations) {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.description?.length ?? 0, name).toBeGreaterThan(20);
      expect(operation.tags?.length, name).toBe(1);
      expect(tags.has(operation.tags![0]!), name).toBe(true);
      ids.add(operation.operationId!);
    }
    expect(ids.size).toBe(operations.length);
  });

  it("lists exactly the routes the control plane serves, both ways, under the guard's bearer scheme", () => {
    const served = new Set(
      app.routes
        .filter(({ method, path }) => method !== 'ALL' && path.startsWith(`${BASE}/`) && !path.startsWith(`${BASE}/ui`) && !path.includes('*'))
        .map(({ method, path }) => `${method} ${path.replaceAll(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(operationsOf(doc).map(([name]) => name));
    expect([...documented].filter((name) => !served.has(name))).toEqual([]);
    expect([...served].filter((name) => !documented.has(name))).toEqual([]);
    expect(served.has(`GET ${BASE}/openapi.json`)).toBe(true);
    expect(doc.components.securitySchemes?.['AdminToken']).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("says svc's own URL, not the origin it was fetched from", async () => {
    const answer = await app.request(`http://127.0.0.1:4999${BASE}/openapi.json`);
    expect(((await answer.json()) as OpenApiDocument).servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4010' })]);
  });
});

// As test/control-plane-guard.test.ts does: the server binds this machine's own non-loopback address.
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

describe.skipIf(ownAddress === undefined)('the control plane OpenAPI document seen from another address', () => {
  it('is 403 without the admin token and served with it, like the rest of the control plane', async () => {
    // As svc serve --host does, the address it listens on is a host name it answers.
    const svc = await startTestEmulator({ host: ownAddress!, allowedHosts: [ownAddress!], inMemory: true, adminToken: 'control-document-token' });
    try {
      const url = `http://${ownAddress}:${svc.emulator.server.port}${BASE}/openapi.json`;
      const refused = await sendRequest(url, 'GET');
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('permission_denied');
      const served = await sendRequest(url, 'GET', { headers: { authorization: 'Bearer control-document-token' } });
      expect(served.status).toBe(200);
      expect(served.body.openapi).toBe('3.1.0');
    } finally {
      await svc.close();
    }
  });
});
