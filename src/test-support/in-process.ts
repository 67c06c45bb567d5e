/**
 * The fast harness for route tests: the real app (createApp) on a real in-memory runtime seeded
 * with fixtures/default.json, called through `app.request()` with no socket and no port. It
 * answers like the real-port harness (harness.ts), so a route test can use either; each area
 * keeps one real-port test for what only a socket shows (streamed bodies, connection handling).
 */
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import type { Runtime, RuntimeOptions } from '../runtime.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../services/seed.js';
import { ACME_KEY, type ApiResponse, type RequestOptions } from './harness.js';

/** What a route test needs of an emulator, real-port or in-process. */
export interface ApiHarness {
  /** The emulator's runtime, for what a test must set up behind the API (sessions, time). */
  readonly emulator: { readonly rt: Runtime };
  /** Like TestEmulator.request: `/users` means `/v1/users`; the Acme key unless `key` says otherwise. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface InProcessEmulator extends ApiHarness {
  close(): Promise<void>;
}

const ORIGIN = 'http://localhost';
const ROOT_PATH = /^\/(v1\/|v1$|_|healthz|readyz)/;

export async function startInProcess(options: Omit<RuntimeOptions, 'inMemory' | 'dataDir'> = {}): Promise<InProcessEmulator> {
  const rt = await createRuntime({ ...options, inMemory: true });
  await seedFixture(rt, await loadFixtureFile(options.seedFile ?? DEFAULT_FIXTURE_PATH));
  const app = createApp(rt);
  return {
    emulator: { rt },
    async request<T = any>(method: string, path: string, requestOptions: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = path.startsWith('http') ? path : ROOT_PATH.test(path) ? `${ORIGIN}${path}` : `${ORIGIN}/v1${path}`;
      const headers: Record<string, string> = { ...(requestOptions.headers ?? {}) };
      const key = requestOptions.key === undefined ? ACME_KEY : requestOptions.key;
      if (key !== null) headers['x-api-key'] = key;
      let body: string | undefined;
      if (requestOptions.rawBody !== undefined) body = requestOptions.rawBody;
      else if (requestOptions.body !== undefined) {
        body = JSON.stringify(requestOptions.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.request(url, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed as T, text };
    },
    close: () => rt.close(),
  };
}
