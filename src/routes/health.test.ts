import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

describe('health', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  it.each([
    ['/healthz', 200, 'ok'],
    ['/readyz', 200, 'ready'],
    ['/v1/healthz', 200, 'ok'],
    ['/v1/readyz', 200, 'ready'],
  ])('GET %s answers %i without a key', async (path, status, state) => {
    const res = await svc.request('GET', path, { key: null });
    expect(res.status).toBe(status);
    expect(res.body.data.status).toBe(state);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
