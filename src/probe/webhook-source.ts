/**
 * `svc webhook probe --webhook ID`: the handler URL of a webhook registered at a deployment,
 * and the `api_version` its tenant's payloads carry, read with the API key (GET /webhooks,
 * GET /tenant; spec part 4). The signing secret is not among them: the API answers it only
 * when the webhook is made or its secret rotated (docs/listen.md#probe-a-registered-webhook),
 * so the probe takes it from --secret.
 */
import { createClient, ServiceError, unwrap } from '../client/index.js';

/** A look-up failure with a one-line message. */
export class WebhookSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSourceError';
  }
}

export interface WebhookSource {
  webhookId: string;
  url: string;
  events: string[];
  enabled: boolean;
  apiVersion: string;
}

function describe(error: unknown, baseUrl: string): string {
  if (error instanceof ServiceError) return error.message;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  return `cannot reach ${baseUrl} (${err.cause?.code ?? err.code ?? err.message}); is the deployment running? (set --emulator-url)`;
}

/** Finds webhook `webhookId` among the key's tenant's webhooks. */
export async function webhookSource(options: { baseUrl: string; apiKey: string; webhookId: string }): Promise<WebhookSource> {
  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: 15_000 });
  try {
    const webhooks = unwrap(await client.webhooks.list()).data;
    const found = webhooks.find((webhook) => webhook.id === options.webhookId);
    if (found === undefined) {
      const known = webhooks.map((webhook) => webhook.id).join(', ');
      throw new WebhookSourceError(`the tenant of this API key has no webhook ${options.webhookId} (it has ${known === '' ? 'none' : known})`);
    }
    const tenant = unwrap(await client.tenant.get()).data;
    return { webhookId: found.id, url: found.url, events: found.events, enabled: found.enabled, apiVersion: tenant.settings.apiVersion };
  } catch (error) {
    if (error instanceof WebhookSourceError) throw error;
    throw new WebhookSourceError(describe(error, options.baseUrl));
  }
}
