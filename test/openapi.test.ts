/**
 * GET /v1/openapi.json: an OpenAPI 3.1 document that a standard validator accepts, with the
 * x-api-key scheme, and whose operations are those of the spec's part 4 (test/spec-operations.ts).
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';
import type { Runtime } from '../src/runtime.js';
import { SERVED_OPERATIONS, SPEC_AREAS, SPEC_OPERATIONS } from './spec-operations.js';

/** The version segment every path of the document starts with (spec part 1, DESIGN D1). */
const BASE = '/v1';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: unknown;
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { content?: unknown }>;
};
type Response = { $ref?: string; content?: unknown; headers?: Record<string, unknown> };
type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  tags?: Array<{ name: string; description?: string }>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas?: Record<string, unknown>;
    responses?: Record<string, Response>;
    headers?: Record<string, Record<string, unknown>>;
  };
};

/** An operation's response for a status, its $ref to components/responses followed. */
function responseOf(doc: OpenApiDocument, operation: Operation, status: string): Response {
  const response = operation.responses[status] as Response;
  const name = response.$ref?.replace('#/components/responses/', '');
  return name === undefined ? response : doc.components.responses![name]!;
}

/** Every operation of the document as `[method, path, operation]`. */
function operationsOf(doc: OpenApiDocument): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => HTTP_METHODS.has(key))
      .map(([method, operation]): [string, string, Operation] => [method.toUpperCase(), path, operation]),
  );
}

describe('the OpenAPI document', () => {
  let rt: Runtime;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    rt = await createRuntime({ inMemory: true });
    const answer = await createApp(rt).request('/v1/openapi.json');
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

  it('declares the x-api-key scheme and requires it on every operation but health and the document', () => {
    expect(doc.components.securitySchemes['ApiKeyAuth']).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    for (const [method, path, operation] of operationsOf(doc)) {
      const open = ['/healthz', '/readyz', '/openapi.json'].map((p) => BASE + p).includes(path);
      const names = (operation.security ?? []).flatMap((entry) => Object.keys(entry as object));
      expect(names.includes('ApiKeyAuth'), `${method} ${path}`).toBe(!open);
    }
  });

  it('writes the base path into every path and the origin into servers, so that Prism matches requests as sent', () => {
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith(`${BASE}/`))).toEqual([]);
    // svc's own URL, not the origin the document was asked for at (app.request's http://localhost here;
    // test/public-url.test.ts asks with other Hosts and gives --public-url).
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4010' })]);
  });

  it('describes itself, under a license', async () => {
    const operation = doc.paths[`${BASE}/openapi.json`]?.['get'];
    expect(operation).toMatchObject({ operationId: 'getOpenApiDocument', security: [] });
    expect(doc.components.schemas?.['OpenApiDocument']).toBeDefined();
    expect(doc.info).toMatchObject({ license: { name: 'MIT' } });
  });

  it('describes a success body, and a body in the error envelope for every failure', () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^2\d\d$/.test(status)),
        where,
      ).toBe(true);
      for (const status of statuses) {
        const content = responseOf(doc, operation, status).content as Record<string, { schema: unknown }> | undefined;
        expect(content?.['application/json']?.schema, `${where} ${status}`).toBeDefined();
        // The envelope, its code narrowed to the operation's (test/openapi-error-codes.test.ts).
        if (!/^2/.test(status))
          expect(content!['application/json']!.schema, `${where} ${status}`).toMatchObject({
            allOf: [{ $ref: '#/components/schemas/Error' }, expect.anything()],
          });
      }
    }
  });

  it('lists the answers the server and middleware give, by rule: 400 408 431 500 503 always, 401 429 with a key, 413 with a body', () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      const keyed = (operation.security ?? []).some((entry) => 'ApiKeyAuth' in (entry as object));
      expect(statuses, where).toEqual(expect.arrayContaining(['400', '408', '431', '500', '503']));
      expect(statuses.includes('401') && statuses.includes('429'), where).toBe(keyed);
      expect(statuses.includes('413'), where).toBe(method !== 'GET');
      if (keyed) {
        expect(responseOf(doc, operation, '429').headers, where).toHaveProperty('Retry-After');
        const success = statuses.find((status) => /^2/.test(status))!;
        expect(responseOf(doc, operation, success).headers, where).toHaveProperty('RateLimit-Remaining');
      }
    }
    expect(doc.components.headers?.['RetryAfter']).toMatchObject({ required: true });
  });

  it('declares exactly the query parameters each list takes', () => {
    const names = (method: string, path: string) => (doc.paths[BASE + path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(names('get', '/users')).toEqual(['page', 'page_size', 'trust_level', 'search']);
    expect(names('get', '/apps')).toEqual(['page', 'page_size', 'search']);
    expect(names('get', '/analytics')).toEqual(['period']);
    expect(names('get', '/webhooks/{id}/deliveries')).toEqual(['status']);
  });

  it('declares the optional empty body of the actions that take none', () => {
    for (const [path, operationId] of [
      ['/mfa/setup', 'setupMfa'],
      ['/mfa/challenge', 'createMfaChallenge'],
      ['/custom-domains/verify', 'verifyCustomDomain'],
    ] as const) {
      const operation = doc.paths[BASE + path]!['post']!;
      expect(operation.operationId).toBe(operationId);
      expect(operation.requestBody).toEqual({
        required: false,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/EmptyBody' }, example: {} } },
      });
    }
  });

  it("keeps a catalogue of the spec's 56 operations in 15 areas", () => {
    expect(SPEC_OPERATIONS).toHaveLength(56);
    expect(new Set(SPEC_OPERATIONS.map((operation) => operation.area))).toEqual(new Set(SPEC_AREAS));
    const keys = SPEC_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves exactly the operations of the catalogue and the document itself, no fewer and no more', () => {
    const served = operationsOf(doc).map(([method, path]) => `${method} ${path}`);
    const catalogue = SERVED_OPERATIONS.map((operation) => `${operation.method} ${BASE}${operation.path}`);
    expect(
      catalogue.filter((key) => !served.includes(key)),
      'in the catalogue, missing from the document',
    ).toEqual([]);
    expect(
      served.filter((key) => !catalogue.includes(key)),
      'in the document, not in the catalogue',
    ).toEqual([]);
  });

  it("names every operation with the catalogue's operationId and tags it with its area", () => {
    const byKey = new Map(SERVED_OPERATIONS.map((operation) => [`${operation.method} ${BASE}${operation.path}`, operation]));
    for (const [method, path, operation] of operationsOf(doc)) {
      const expected = byKey.get(`${method} ${path}`);
      expect(operation.operationId, `${method} ${path}`).toBe(expected?.operationId);
      expect(operation.tags, `${method} ${path}`).toEqual([expected?.tag]);
    }
  });

  it("describes every tag it uses, in the order of the spec's areas, then the document's", () => {
    expect((doc.tags ?? []).map((tag) => tag.name)).toEqual([...SPEC_AREAS, 'OpenAPI']);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/\w{3,}/);
  });
});
