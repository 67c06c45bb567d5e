/**
 * Test harness: a real emulator on an ephemeral loopback port with a temp data dir, and a
 * small fetch helper. Every suite that talks HTTP starts one of these.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator.js';
import { CONTROL_HEADER } from '../middleware/cross-site.js';

/** The plain keys of fixtures/default.json (also in the README). */
export const ACME_KEY = 'sk_test_acmeLocalDevKey00000000000000001';
export const GLOBEX_KEY = 'sk_test_globexLocalDevKey000000000000001';
export const ACME_TENANT_ID = 'ten_acme0000000000000001';
export const GLOBEX_TENANT_ID = 'ten_globex00000000000001';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestEmulator {
  emulator: Emulator;
  baseUrl: string;
  origin: string;
  dataDir: string;
  /**
   * Sends a request (with the Acme key unless `key` says otherwise). `/users` means
   * `/v1/users`; paths that start with /v1/, /_, /healthz or /readyz, and full URLs, are taken as they are.
   */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Stops the server; the data dir stays until `cleanup()`. */
  stop(): Promise<void>;
  /** Stops the server and removes its data dir. */
  close(): Promise<void>;
}

const ROOT_PATH = /^\/(v1\/|v1$|_|healthz|readyz)/;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/**
 * The header a program sends on a state-changing control-plane call, as the CLI and the typed
 * client do (middleware/cross-site.ts): the tests call it as a program, never as a page.
 */
export function controlHeaders(url: string, method: string): Record<string, string> {
  return method !== 'GET' && method !== 'HEAD' && /^\/_emulator(\/|$)/.test(new URL(url).pathname) ? { [CONTROL_HEADER]: '1' } : {};
}

export async function sendRequest<T = any>(url: string, method: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...controlHeaders(url, method), ...(options.headers ?? {}) };
  if (options.key !== null && options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export async function startTestEmulator(options: EmulatorOptions & { dataDir?: string } = {}): Promise<TestEmulator> {
  const dataDir = options.dataDir ?? tempDataDir();
  const emulator = await startEmulator({ port: 0, ...options, dataDir });
  const origin = emulator.server.origin;
  return {
    emulator,
    baseUrl: emulator.baseUrl,
    origin,
    dataDir,
    request(method, path, requestOptions = {}) {
      const url = path.startsWith('http') ? path : ROOT_PATH.test(path) ? `${origin}${path}` : `${emulator.baseUrl}${path}`;
      return sendRequest(url, method, { key: ACME_KEY, ...requestOptions });
    },
    stop: () => emulator.close(),
    async close() {
      await emulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
