/** Webhooks and deliveries (spec part 2, 4, 6; D8, D9, D15). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { ALL_EVENTS, EVENT_TYPES } from './words.js';
import { IsoTimestamp, idOf } from './common.js';

export const WebhookUrl = z
  .string()
  .max(2048)
  .url('an absolute URL')
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'an http or https URL')
  .openapi({ example: 'http://127.0.0.1:4020/webhooks' });

export const EventTypeName = z.enum([...EVENT_TYPES, ALL_EVENTS]).openapi({ description: 'An event type (docs/design.md#d8), or * for all' });

const Events = z.array(EventTypeName).min(1, 'subscribe to at least one event type').max(50);

export const CreateWebhookBody = z.object({ url: WebhookUrl, events: Events, description: z.string().max(500).nullable().optional() }).openapi('CreateWebhook');

export const UpdateWebhookBody = z
  .object({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
    rotateSecret: z.boolean().optional(),
  })
  .openapi('UpdateWebhook');

export const Webhook = z
  .object({
    id: idOf('whk'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi('Webhook');

export const WebhookWithSecret = Webhook.extend({
  secret: secret(z.string().regex(/^whsec_[0-9A-Za-z]{32}$/)).openapi({ description: 'The signing secret; answered only on create and rotate' }),
}).openapi('WebhookWithSecret');

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'dead']);

export const Attempt = z
  .object({
    at: IsoTimestamp,
    signedAt: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number(),
  })
  .openapi('DeliveryAttempt');

export const Delivery = z
  .object({
    id: idOf('dlv'),
    webhookId: idOf('whk'),
    eventId: idOf('evt'),
    eventType: z.string(),
    status: DeliveryStatus,
    attempts: z.array(Attempt),
    nextAttemptAt: IsoTimestamp.nullable(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi('Delivery');

export const TestEventBody = z.object({ type: z.enum(EVENT_TYPES).optional() }).openapi('TestEvent');

export const DeliveryListQuery = z.object({
  status: DeliveryStatus.optional().openapi({ param: { name: 'status', in: 'query' } }),
});

/** The delivered body (spec part 2): exactly what a receiver checks. */
export const EventPayload = z
  .object({
    id: idOf('evt'),
    type: z.string().regex(/^[a-z_]+(\.[a-z_]+)+$/, 'a dotted event type'),
    created_at: IsoTimestamp,
    api_version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('EventPayload');

/** `data` of `user.created` (spec part 2). */
export const UserCreatedData = z.object({ userId: z.string(), email: z.string().email(), partyId: z.string() });

export type WebhookView = z.infer<typeof Webhook>;
export type DeliveryView = z.infer<typeof Delivery>;
export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>;
