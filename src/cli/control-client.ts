/** The CLI's way to a running emulator's control plane (`/_emulator`), with readable failures. */
import { apiBaseUrl, BaseUrlError } from '../base-url.js';
import { describeErrorEnvelope } from '../errors.js';
import { loadUndici } from '../undici.js';
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

/** Calls the control plane and answers its `data`; errors become one-line CliErrors. */
export async function controlRequest<T>(options: ControlOptions, method: string, path: string, body?: unknown): Promise<T> {
  const origin = originOf(options.url);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.adminToken) headers['authorization'] = `Bearer ${options.adminToken}`;
  let response;
  try {
    response = await (
      await loadUndici()
    ).request(`${origin}/_emulator${path}`, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`cannot reach the emulator at ${origin} (${code}); is \`svc serve\` running there? (set --url)`, 2);
  }
  const text = await response.body.text();
  let parsed: { data?: T } | undefined;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  if (response.statusCode >= 400 || parsed?.data === undefined) {
    throw new CliError(`${method} /_emulator${path} failed: ${describeErrorEnvelope(parsed, response.statusCode)}`);
  }
  return parsed.data;
}
