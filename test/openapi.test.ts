/**
 * GET /v1/openapi.json: an OpenAPI 3.1 document that a standard validator accepts, with the
 * x-api-key scheme, and whose operations are those of the spec's part 4 (test/spec-operations.ts).
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime, type Runtime } from '../src/runtime.js';
import { SPEC_AREAS, SPEC_OPERATIONS } from './spec-operations.js';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Operation = { operationId?: string; tags?: string[]; security?: unknown[]; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: unknown }> };
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  tags?: Array<{ name: string; description?: string }>;
  components: { securitySchemes: Record<string, unknown> };
};

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
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const open = path === '/healthz' || path === '/readyz';
        const names = (operation.security ?? []).flatMap((entry) => Object.keys(entry as object));
        expect(names.includes('ApiKeyAuth'), `${method.toUpperCase()} ${path}`).toBe(!open);
      }
    }
  });

  it('describes a success body and the error envelope for every operation', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        const where = `${method.toUpperCase()} ${path}`;
        expect(statuses.some((status) => /^2\d\d$/.test(status)), where).toBe(true);
        if (path !== '/healthz' && path !== '/readyz') expect(statuses, where).toEqual(expect.arrayContaining(['400', '401']));
        for (const status of statuses) expect(operation.responses[status]!.content, `${where} ${status}`).toBeDefined();
      }
    }
  });

  it('takes the list parameters the spec names', () => {
    const names = (method: string, path: string) => (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(names('get', '/users')).toEqual(expect.arrayContaining(['page', 'page_size', 'trust_level', 'search']));
    expect(names('get', '/apps')).toEqual(expect.arrayContaining(['page', 'page_size']));
    if (doc.paths['/analytics']) expect(names('get', '/analytics')).toContain('period');
  });

  it('keeps a catalogue of the spec\'s 56 operations in 15 areas', () => {
    expect(SPEC_OPERATIONS).toHaveLength(56);
    expect(new Set(SPEC_OPERATIONS.map((operation) => operation.area))).toEqual(new Set(SPEC_AREAS));
    const keys = SPEC_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves exactly the operations of the catalogue, no fewer and no more', () => {
    const served = operationsOf(doc).map(([method, path]) => `${method} ${path}`);
    const catalogue = SPEC_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(catalogue.filter((key) => !served.includes(key)), 'in the spec, missing from the document').toEqual([]);
    expect(served.filter((key) => !catalogue.includes(key)), 'in the document, not in the spec').toEqual([]);
  });

  it('names every operation with the catalogue\'s operationId and tags it with its area', () => {
    const byKey = new Map(SPEC_OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation]));
    for (const [method, path, operation] of operationsOf(doc)) {
      const expected = byKey.get(`${method} ${path}`);
      expect(operation.operationId, `${method} ${path}`).toBe(expected?.operationId);
      expect(operation.tags, `${method} ${path}`).toEqual([expected?.area]);
    }
  });

  it('describes every tag it uses, in the order of the spec\'s areas', () => {
    expect((doc.tags ?? []).map((tag) => tag.name)).toEqual([...SPEC_AREAS]);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/\w{3,}/);
  });
});
