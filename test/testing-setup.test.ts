/**
 * svc/testing's global set-ups called as jest and vitest call them: one emulator started for
 * the run with its environment set for the workers, a worker's tenant made once, and all of it
 * gone after the teardown. (The vitest one also runs for real in example-project.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import jestSetup from '../src/testing/jest-setup.js';
import jestTeardown from '../src/testing/jest-teardown.js';
import vitestSetup from '../src/testing/vitest-setup.js';
import { workerTenant } from '../src/testing/index.js';
import { unwrap } from '../src/index.js';

const SVC_VARIABLES = ['SVC_URL', 'SVC_ORIGIN', 'SVC_API_KEY', 'SVC_TENANT_ID', 'SVC_SECOND_API_KEY', 'SVC_SECOND_TENANT_ID'];

afterEach(() => {
  for (const name of SVC_VARIABLES) delete process.env[name];
});

describe('svc/testing', () => {
  it('jest: the set-up starts an emulator and sets the environment; the teardown stops it and clears it', async () => {
    await jestSetup();
    const url = process.env['SVC_URL']!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(process.env['SVC_API_KEY']).toBe('sk_test_acmeLocalDevKey00000000000000001');
    expect(process.env['SVC_SECOND_TENANT_ID']).toBe('ten_globex00000000000001');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const mine = await workerTenant();
    expect(await workerTenant()).toBe(mine);
    expect(unwrap(await mine.client.tenant.get()).data.name).toBe(`test worker ${process.env['VITEST_POOL_ID']} (pid ${process.pid})`);
    await mine.remove();
    expect((await mine.client.tenant.get()).status).toBe(401);
    await jestTeardown();
    expect(process.env['SVC_URL']).toBeUndefined();
    await expect(fetch(`${url}/readyz`)).rejects.toThrow();
  });

  it('vitest: under svc exec (SVC_URL set) the set-up starts nothing and its teardown stops nothing', async () => {
    process.env['SVC_URL'] = 'http://127.0.0.1:9/v1';
    const teardown = await vitestSetup();
    expect(process.env['SVC_API_KEY']).toBeUndefined();
    await teardown();
    expect(process.env['SVC_URL']).toBe('http://127.0.0.1:9/v1');
  });
});
