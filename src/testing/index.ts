/**
 * `svc/testing`: what a test file or a worker's set-up uses against the run's
 * emulator (started by `svc exec`, or by the vitest or jest global set-up): `workerTenant()`
 * makes this worker's own tenant, once, with a client that acts for it.
 */
import { createClient, type Client, type TestTenant } from '../client/index.js';
import { unwrap } from '../client/transport.js';

export { startSharedEmulator, type SharedEmulator } from './shared-emulator.js';

export interface WorkerTenant extends TestTenant {
  /** A client acting for the tenant (its API key); `client.emulator` reaches the control plane. */
  client: Client;
  /** Removes the tenant with everything it holds. */
  remove(): Promise<void>;
}

/** Which worker this is: vitest's VITEST_POOL_ID, jest's JEST_WORKER_ID, else the process id. */
export function workerId(): string {
  return process.env['VITEST_POOL_ID'] ?? process.env['JEST_WORKER_ID'] ?? String(process.pid);
}

let mine: Promise<WorkerTenant> | undefined;

/**
 * This worker's tenant, made on the first call (from the fixture's first tenant unless
 * `template` or `plan` says otherwise) and the same one on every later call in this process.
 */
export function workerTenant(options: { template?: string | null; plan?: 'free' | 'pro' | 'enterprise' } = {}): Promise<WorkerTenant> {
  mine ??= makeTenant(options);
  return mine;
}

async function makeTenant(options: { template?: string | null; plan?: 'free' | 'pro' | 'enterprise' }): Promise<WorkerTenant> {
  const baseUrl = process.env['SVC_URL'];
  if (baseUrl === undefined || baseUrl === '')
    throw new Error('SVC_URL is not set: run the tests under `svc exec`, or with the svc/testing/vitest-setup (or jest-setup) global set-up');
  const admin = createClient({
    baseUrl,
    ...(process.env['SVC_ADMIN_TOKEN'] ? { headers: { authorization: `Bearer ${process.env['SVC_ADMIN_TOKEN']}` } } : {}),
  });
  const made = unwrap(await admin.emulator.tenants.create({ name: `test worker ${workerId()} (pid ${process.pid})`, ...options })).data;
  return {
    ...made,
    client: admin.emulator.clientFor(made.apiKey),
    async remove() {
      unwrap(await admin.emulator.tenants.remove(made.tenant.id));
      mine = undefined;
    },
  };
}
