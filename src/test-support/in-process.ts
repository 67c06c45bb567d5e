/**
 * The fast harness for route tests: the real app (createApp) on a real runtime seeded with
 * fixtures/default.json, called through `app.request()` with no socket and no port. It answers
 * like the real-port harness (harness.ts), so a route test can use either; each area keeps one
 * real-port test for what only a socket shows (streamed bodies, connection handling). The store
 * is in memory unless a test names a data dir, for what must be seen on disk.
 */
import { rmSync } from 'node:fs';
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import type { Runtime, RuntimeOptions } from '../runtime.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../services/seed.js';
import { usageMeter } from '../services/usage.js';
import { ACME_KEY, controlHeaders, type ApiResponse, type RequestOptions } from './harness.js';

/** What a route test needs of an emulator, real-port or in-process. */
export interface ApiHarness {
  /** The emulator's runtime, for what a test must set up behind the API (sessions, time). */
  readonly emulator: { readonly rt: Runtime };
  /** Like TestEmulator.request: `/users` means `/v1/users`; the Acme key unless `key` says otherwise. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface InProcessOptions extends Omit<RuntimeOptions, 'inMemory'> {
  /** A data dir for a durable store, seeded only when new (as `svc serve` does); in memory when left out. */
  dataDir?: string;
}

export interface InProcessEmulator extends ApiHarness {
  /** The origin the app sees in its requests, so the URLs it answers (a checkout page's) begin with it. */
  readonly origin: string;
  /** The data dir, when one was given. */
  readonly dataDir: string | undefined;
  /** Stops the runtime; a data dir stays until `close()`. */
  stop(): Promise<void>;
  /** Stops the runtime and removes its data dir, if any. */
  close(): Promise<void>;
}

const ORIGIN = 'http://localhost';
const ROOT_PATH = /^\/(v1\/|v1$|_|healthz|readyz)/;

export async function startInProcess(options: InProcessOptions = {}): Promise<InProcessEmulator> {
  const { dataDir } = options;
  // The app is reached at ORIGIN here, and told so, as svc serve is told its --public-url.
  const rt = await createRuntime({ publicUrl: ORIGIN, ...options, inMemory: dataDir === undefined });
  if (rt.isNew) {
    await seedFixture(rt, await loadFixtureFile(options.seedFile ?? DEFAULT_FIXTURE_PATH));
    await rt.store.compact();
  }
  const app = createApp(rt);
  let stopping: Promise<void> | null = null;
  // As the real emulator stops: the usage counted so far is written before the store closes.
  const stop = () =>
    (stopping ??= (async () => {
      await usageMeter(rt).flush();
      await rt.close();
    })());
  return {
    emulator: { rt },
    origin: ORIGIN,
    dataDir,
    async request<T = any>(method: string, path: string, requestOptions: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = path.startsWith('http') ? path : ROOT_PATH.test(path) ? `${ORIGIN}${path}` : `${ORIGIN}/v1${path}`;
      const headers: Record<string, string> = { ...controlHeaders(url, method), ...(requestOptions.headers ?? {}) };
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
    stop,
    async close() {
      await stop();
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
