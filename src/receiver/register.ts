/**
 * `svc webhook listen --register`: registers the receiver as a webhook at a deployment
 * (POST {base}/webhooks, spec part 4), takes the signing secret from the answer (D8, D15),
 * and deletes the webhook again on exit.
 */
import { describeErrorEnvelope } from '../errors.js';
import { loadUndici } from '../undici.js';

/** A registration failure with a one-line, actionable message. */
export class RegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrationError';
  }
}

export interface Registration {
  apiBase: string;
  apiKey: string;
  webhookId: string;
  secret: string;
}

async function call(method: 'POST' | 'DELETE', url: string, apiKey: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  let response;
  try {
    response = await (
      await loadUndici()
    ).request(url, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    throw new RegistrationError(`cannot reach ${new URL(url).origin} (${err.code ?? err.cause?.code ?? err.message}); is the deployment running? (set --url)`);
  }
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json };
}

/** Creates the webhook; answers its id and secret. */
export async function registerWebhook(options: { apiBase: string; apiKey: string; url: string; events: string[] }): Promise<Registration> {
  const { status, json } = await call('POST', `${options.apiBase}/webhooks`, options.apiKey, {
    url: options.url,
    events: options.events,
    description: 'svc webhook listen (deleted when it exits)',
  });
  if (status !== 200 && status !== 201) throw new RegistrationError(`POST ${options.apiBase}/webhooks failed: ${describeErrorEnvelope(json, status)}`);
  const data = (json as { data?: { id?: unknown; secret?: unknown } } | undefined)?.data;
  if (typeof data?.id !== 'string' || typeof data.secret !== 'string' || data.secret === '') {
    throw new RegistrationError(`POST ${options.apiBase}/webhooks answered ${status} without data.id and data.secret`);
  }
  return { apiBase: options.apiBase, apiKey: options.apiKey, webhookId: data.id, secret: data.secret };
}

/**
 * Deletes the webhook. Answers `deleted`, or `gone` when the deployment no longer had it (404:
 * someone deleted it meanwhile, or the emulator was reset).
 */
export async function unregisterWebhook(registration: Registration): Promise<'deleted' | 'gone'> {
  const url = `${registration.apiBase}/webhooks/${encodeURIComponent(registration.webhookId)}`;
  const { status, json } = await call('DELETE', url, registration.apiKey);
  if (status === 404) return 'gone';
  if (status >= 300) throw new RegistrationError(`DELETE ${url} failed: ${describeErrorEnvelope(json, status)}`);
  return 'deleted';
}
