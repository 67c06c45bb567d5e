/**
 * The CLI's way to a running emulator's control plane (`/_emulator`): the typed control client
 * (client/control.ts) for `--url` and `--admin-token`, and its failures as one-line CliErrors.
 */
import { apiBaseUrl, BaseUrlError } from '../base-url.js';
import type { ControlClient } from '../client/control.js';
import type { ApiResult } from '../client/transport.js';
import { describeErrorEnvelope } from '../errors.js';
import { CliError } from './output.js';

export const DEFAULT_ORIGIN = 'http://127.0.0.1:4010';

export interface ControlOptions {
  url: string;
  adminToken?: string;
}

/** The emulator's origin from `--url`, read as every command reads it (base-url.ts): with or without `/v1`. */
export function originOf(url: string): string {
  try {
    return new URL(apiBaseUrl(url)).origin;
  } catch (error) {
    throw error instanceof BaseUrlError ? new CliError(`--url ${error.message}`, 2) : error;
  }
}

/** Why a call never got an answer: undici's fetch puts the socket's code (ECONNREFUSED …) in its cause. */
function unreachable(error: unknown): string {
  const { code, cause, message } = error as NodeJS.ErrnoException & { cause?: { code?: string } };
  return cause?.code ?? code ?? message;
}

/**
 * Makes one call of the control plane with the client for `options` and answers its `data`; no
 * answer, an error answer or one without `data` becomes a one-line CliError. No timeout: a
 * clock step or a fault's delay may rightly take minutes.
 */
export async function control<T>(options: ControlOptions, call: (emulator: ControlClient) => Promise<ApiResult<{ data: T }>>): Promise<T> {
  const origin = originOf(options.url);
  // Loaded on first use: the client brings every operation's schemas, which `svc serve` must not pay for at start.
  const { createControlClient } = await import('../client/control.js');
  const emulator = createControlClient({
    baseUrl: origin,
    timeoutMs: 0,
    ...(options.adminToken ? { headers: { authorization: `Bearer ${options.adminToken}` } } : {}),
  });
  let result: ApiResult<{ data: T }>;
  try {
    result = await call(emulator);
  } catch (error) {
    throw new CliError(`cannot reach the emulator at ${origin} (${unreachable(error)}); is \`svc serve\` running there? (set --url)`, 2);
  }
  const data = result.ok ? (result.body as { data?: T } | undefined)?.data : undefined;
  if (data === undefined) {
    const { pathname, search } = new URL(result.request.url);
    throw new CliError(`${result.request.method} ${pathname}${search} failed: ${describeErrorEnvelope(result.body, result.status)}`);
  }
  return data;
}
