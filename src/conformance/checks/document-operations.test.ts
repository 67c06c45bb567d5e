/**
 * The status checks' reading of an OpenAPI document, on the emulator's own: every operation,
 * which take the key and which a session, and the requests that provoke a status without
 * changing anything — each refused input refused with 400 by the emulator itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../operations/index.js';
import { startInProcess, type InProcessEmulator } from '../../test-support/in-process.js';
import { documentOperations, harmlessCall, refusedInput, type DocumentOperation } from './document-operations.js';

let svc: InProcessEmulator;
let operations: DocumentOperation[];

beforeAll(async () => {
  svc = await startInProcess();
  operations = documentOperations((await svc.request('GET', '/openapi.json', { key: null })).body, '/v1');
});
afterAll(async () => svc?.close());

const byId = (operationId: string): DocumentOperation => operations.find((operation) => operation.operationId === operationId)!;
const MISSING = 'conformanceTestMissing';

describe('the operations of the emulator document', () => {
  it('are every operation, with paths below the base URL and the statuses the document lists', () => {
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(Object.keys(OPERATIONS).sort());
    expect(byId('getApp')).toMatchObject({ method: 'GET', path: '/apps/{id}', keyed: true, session: undefined, body: false });
    expect([...byId('getApp').documented].sort()).toEqual([200, 400, 401, 404, 408, 429, 431, 500, 503]);
    expect(byId('createApp')).toMatchObject({ method: 'POST', path: '/apps', body: true, bodyRequired: true });
  });

  it('tell the key, a user session and a delegated session apart', () => {
    expect(operations.filter((operation) => !operation.keyed).map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['checkHealth', 'checkReadiness', 'getOpenApiDocument']),
    );
    expect(byId('getWallet').session).toBe('user');
    expect(byId('getKeyShares').session).toBe('user');
    expect(byId('executeTransaction').session).toBe('delegated');
    expect(byId('listApps').session).toBeUndefined();
  });

  it('give a refused input to every operation that takes a body, a path id or a query, and the emulator refuses each with 400', async () => {
    expect(refusedInput(byId('createApp'), MISSING)).toMatchObject({ path: '/apps', body: [] });
    expect(refusedInput(byId('getApp'), MISSING)?.path).toBe(`/apps/${'a'.repeat(201)}`);
    expect(refusedInput(byId('getAnalytics'), MISSING)).toMatchObject({ path: '/analytics', what: 'no period (required)' });
    expect(refusedInput(byId('listUsers'), MISSING)?.query).toEqual({ page: '0' });
    expect(refusedInput(byId('getTenant'), MISSING)).toBeUndefined();
    const keyedWithoutSession = operations.filter((operation) => operation.keyed && operation.session === undefined);
    for (const operation of keyedWithoutSession) {
      const input = refusedInput(operation, MISSING);
      if (input === undefined) continue;
      const query = input.query === undefined ? '' : `?${new URLSearchParams(input.query).toString()}`;
      const answer = await svc.request(operation.method, `${input.path}${query}`, input.body === undefined ? {} : { body: input.body });
      expect([operation.operationId, answer.status, answer.body.code]).toEqual([operation.operationId, 400, 'validation_error']);
    }
  });

  it('have a call that changes nothing for every operation but removing the custom domain', () => {
    const without = operations.filter((operation) => harmlessCall(operation, MISSING) === undefined).map((operation) => operation.operationId);
    expect(without).toEqual(['removeCustomDomain']);
    expect(harmlessCall(byId('deleteApp'), MISSING)?.path).toBe(`/apps/${'a'.repeat(201)}`);
    expect(harmlessCall(byId('disableMfa'), MISSING)).toEqual({ path: '/mfa' });
  });
});
