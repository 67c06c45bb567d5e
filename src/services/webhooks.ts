/**
 * Webhooks (spec part 4, 6; D8, D9): registrations with a signing secret answered
 * once (`whsec_` + 32 base62, sealed at rest), test events, and the deliveries list. A URL
 * is registered only if the webhook target policy allows it (D17, webhooks/targets.ts) and it
 * does not reach svc itself (docs/webhook-targets.md#svc-never-calls-itself).
 */
import { ApiError, notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { CreateWebhookInput, DeliveryView, UpdateWebhookInput, WebhookView } from '../schemas/webhooks.js';
import type { DeliveryRecord, DeliveryStatus, WebhookRecord } from '../store/records.js';
import { orphaned } from '../webhooks/dispatcher.js';
import { sampleEventData } from '../webhooks/event-types.js';
import { hostLookup, resolveTarget, urlHost, urlPort } from '../webhooks/target-lookup.js';
import { hostPort, SELF_CALL_DOC, targetPolicy, type SelfCall, type TargetRefusal } from '../webhooks/targets.js';
import { ALL_EVENTS, isEventType, type EventType } from '../schemas/words.js';
import { emitEvent } from './events.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBase62(32)}`;
}

export function webhookView(webhook: WebhookRecord): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

export function deliveryView(delivery: DeliveryRecord): DeliveryView {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

export function listWebhooks(rt: Runtime, tenantId: string): WebhookView[] {
  return rt.store.newestFirst('webhooks', tenantId).map(webhookView);
}

export function getWebhook(rt: Runtime, tenantId: string, id: string): WebhookRecord {
  const webhook = rt.store.getOwned('webhooks', tenantId, id);
  if (!webhook) throw notFound('webhook', id);
  return webhook;
}

/**
 * Refuses a URL whose host is, or resolves to, an address of svc itself at the URL's port, or
 * an address the policy refuses (400). A name that does not resolve now is let through:
 * every attempt resolves and checks it again.
 */
async function checkTarget(rt: Runtime, url: string): Promise<void> {
  const policy = targetPolicy(rt.options.webhookTargets);
  let refusal: TargetRefusal | SelfCall | null;
  try {
    ({ refusal } = await resolveTarget(policy, urlHost(url), hostLookup(rt.options.webhookDnsServer), { listening: rt.listening, port: urlPort(url) }));
  } catch {
    return;
  }
  if (!refusal) return;
  if ('listener' in refusal) {
    throw new ApiError('validation_error', `url ${url} is not an allowed webhook target: ${refusal.message}`, [
      {
        path: 'url',
        message: refusal.message,
        rule: SELF_CALL_DOC,
        address: refusal.address,
        port: refusal.port,
        listening: hostPort(refusal.listener.address, refusal.listener.port),
      },
    ]);
  }
  const change = `${policy.text},${refusal.address}`;
  const message =
    `url ${url} is not an allowed webhook target: ${refusal.message}. ` +
    `The deployment's operator sets the policy with svc serve --webhook-targets (env SVC_WEBHOOK_TARGETS), e.g. --webhook-targets ${change}`;
  throw new ApiError('validation_error', message, [
    { path: 'url', message: refusal.message, policy: refusal.policy, address: refusal.address, range: refusal.range },
  ]);
}

/** A webhook as the store keeps it: its events once each, its secret sealed. A fixture's (seed.ts) too. */
export function webhookRecord(
  rt: Runtime,
  tenantId: string,
  fields: {
    id: string;
    url: string;
    events: WebhookRecord['events'];
    description?: string | null | undefined;
    enabled: boolean;
    secret: string;
    createdAt: string;
  },
): WebhookRecord {
  return {
    id: fields.id,
    tenantId,
    url: fields.url,
    events: [...new Set(fields.events)],
    description: fields.description ?? null,
    enabled: fields.enabled,
    secret: rt.sealer.seal(Buffer.from(fields.secret, 'utf8')),
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
  };
}

export async function createWebhook(rt: Runtime, tenantId: string, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
  await checkTarget(rt, input.url);
  const secret = newWebhookSecret();
  const webhook = webhookRecord(rt, tenantId, { ...input, id: newId('whk'), enabled: true, secret, createdAt: rt.clock.iso() });
  await rt.store.write(() => rt.store.insert('webhooks', webhook));
  return { ...webhookView(webhook), secret };
}

/** Patches a webhook; `rotateSecret: true` issues a new secret, answered this once. */
export async function updateWebhook(rt: Runtime, tenantId: string, id: string, input: UpdateWebhookInput): Promise<WebhookView & { secret?: string }> {
  const webhook = getWebhook(rt, tenantId, id);
  if (input.url !== undefined) await checkTarget(rt, input.url);
  const secret = input.rotateSecret ? newWebhookSecret() : undefined;
  const updated = await rt.store.write(() =>
    rt.store.update('webhooks', id, {
      url: input.url ?? webhook.url,
      events: input.events ? [...new Set(input.events)] : webhook.events,
      description: input.description === undefined ? webhook.description : input.description,
      enabled: input.enabled ?? webhook.enabled,
      ...(secret === undefined ? {} : { secret: rt.sealer.seal(Buffer.from(secret, 'utf8')) }),
      updatedAt: rt.clock.iso(),
    }),
  );
  return secret === undefined ? webhookView(updated) : { ...webhookView(updated), secret };
}

/**
 * Deletes a webhook. Nothing more is sent to it, but its deliveries stay, marked orphaned, so
 * their history and the DLQ stay true: one still waiting for an attempt is given up and goes
 * to the DLQ, where it cannot be retried (there is no URL or secret left to send it with).
 */
export async function deleteWebhook(rt: Runtime, tenantId: string, id: string): Promise<void> {
  getWebhook(rt, tenantId, id);
  const now = rt.clock.iso();
  await rt.store.write(() => {
    rt.store.remove('webhooks', id);
    // Read inside the write: on a shared store it runs on current records, so a delivery
    // another process made for this webhook a moment ago is orphaned too, not left waiting.
    const deliveries = rt.store.ofTenant('deliveries', tenantId).filter((delivery) => delivery.webhookId === id);
    for (const delivery of deliveries) rt.store.update('deliveries', delivery.id, orphaned(delivery, now));
  });
}

/**
 * Sends one test event (type from the body, else the webhook's first type) with sample
 * data to this webhook only, and answers the delivery after its first attempt.
 */
export async function sendTestEvent(rt: Runtime, tenantId: string, id: string, type?: EventType): Promise<DeliveryView> {
  const webhook = getWebhook(rt, tenantId, id);
  const first = webhook.events.find((event) => event !== ALL_EVENTS);
  const eventType: EventType = type ?? (first !== undefined && isEventType(first) ? first : 'user.created');
  const event = await rt.store.write(() => emitEvent(rt, tenantId, eventType, sampleEventData(eventType), { webhookId: id }));
  const delivery = rt.store.ofTenant('deliveries', tenantId).find((d) => d.eventId === event.id);
  if (!delivery) throw notFound('delivery for event', event.id);
  return deliveryView(await rt.dispatcher.attemptNow(delivery.id));
}

export function listDeliveries(rt: Runtime, tenantId: string, webhookId: string, status?: DeliveryStatus): DeliveryView[] {
  getWebhook(rt, tenantId, webhookId);
  return rt.store
    .newestFirst('deliveries', tenantId)
    .filter((delivery) => delivery.webhookId === webhookId && (status === undefined || delivery.status === status))
    .map(deliveryView);
}
