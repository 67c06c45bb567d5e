/**
 * Webhook events (spec part 2 and 6; D8): the payload of each event type, `data`
 * included, and the headers of a delivery. The OpenAPI document's `webhooks` is made from
 * these, and receivers can check a delivery with them. Fields a sample event (POST
 * /webhooks/:id/test, `svc trigger`) leaves out are optional; a receiver must ignore fields
 * it does not know.
 */
import { z } from '@hono/zod-openapi';
import { EVENT_TYPES, type EventType } from './words.js';
import { IsoTimestamp, idOf } from './common.js';
import { LedgerEvent } from './delegated-sessions.js';
import { PlanLimits } from './tenant.js';
import { Email, PartyId, TrustLevel } from './users.js';
import { Hex32 } from './wallets.js';

const UserId = idOf('usr');
const Plan = z.enum(['free', 'pro', 'enterprise']);

/** `data` of each event type. */
export const EVENT_DATA = {
  'user.created': z.object({
    userId: UserId,
    email: Email.openapi({ description: "The user's e-mail; a user without one (a Telegram sign-up) gets no user.created" }),
    partyId: PartyId,
  }),
  'user.updated': z.object({
    userId: UserId,
    changes: z.array(z.enum(['trustLevel', 'name', 'signInMethods'])).min(1),
    added: z.enum(['passkey', 'telegram']).optional().openapi({ description: 'The sign-in method linked, when changes holds signInMethods' }),
    trustLevel: TrustLevel.optional(),
  }),
  'guest.created': z.object({ guestId: idOf('gst'), userId: UserId, expiresAt: IsoTimestamp }),
  'guest.converted': z.object({ guestId: idOf('gst'), userId: UserId, email: Email }),
  'wallet.created': z.object({ walletId: idOf('wal'), userId: UserId, partyId: PartyId, publicKey: Hex32.optional() }),
  'tx.completed': z.object({
    transactionId: idOf('tx'),
    sessionId: idOf('dsn'),
    userId: UserId.optional(),
    walletId: idOf('wal').optional(),
    partyId: PartyId,
    updateId: z.string(),
    status: z.literal('completed'),
    events: z.array(LedgerEvent).optional(),
  }),
  'tx.failed': z.object({
    transactionId: idOf('tx'),
    sessionId: idOf('dsn'),
    userId: UserId.optional(),
    walletId: idOf('wal').optional(),
    partyId: PartyId,
    status: z.literal('failed'),
    code: z.string().optional(),
    reason: z.string(),
  }),
  'session.revoked': z.object({
    sessionId: z
      .string()
      .regex(/^(gst|dsn)_[0-9A-Za-z]+$/)
      .openapi({ description: 'The guest session (gst_) or delegated session (dsn_) ended' }),
    kind: z.enum(['guest', 'delegated']),
    userId: UserId.optional(),
    walletId: idOf('wal').optional(),
  }),
  'mfa.enabled': z.object({ userId: UserId, method: z.literal('totp') }),
  'mfa.disabled': z.object({ userId: UserId, method: z.literal('totp').optional() }),
  'api_key.created': z.object({ apiKeyId: idOf('key'), name: z.string(), prefix: z.string(), last4: z.string() }),
  'api_key.revoked': z.object({ apiKeyId: idOf('key'), name: z.string() }),
  'domain.verified': z.object({ domainId: idOf('dom').optional(), domain: z.string(), verifiedAt: IsoTimestamp }),
  'billing.subscription.updated': z.object({
    plan: Plan,
    previousPlan: Plan,
    checkoutId: z.string().optional().openapi({ description: 'The checkout that changed the plan' }),
    portalSessionId: z.string().optional().openapi({ description: 'The billing portal session that changed the plan' }),
    limits: PlanLimits.optional(),
  }),
} satisfies Record<EventType, z.ZodObject>;

export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** `user.created` → `UserCreated`: the name of the type's schemas in the document. */
export function eventTypeName(type: EventType): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The delivered body of one event type (spec part 2). */
function payloadOf<T extends EventType>(type: T) {
  return z
    .object({
      id: idOf('evt'),
      type: z.literal(type),
      created_at: IsoTimestamp.openapi({ description: 'When the event happened, on the emulator clock' }),
      api_version: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .openapi({ example: '2026-11-01', description: "The tenant's pinned API version" }),
      data: EVENT_DATA[type].openapi(`${eventTypeName(type)}Data`),
    })
    .openapi(`${eventTypeName(type)}Event`);
}

/** The payload schema of every event type. */
export const EVENT_PAYLOADS = Object.fromEntries(EVENT_TYPES.map((type) => [type, payloadOf(type)])) as {
  [T in EventType]: ReturnType<typeof payloadOf<T>>;
};

const P = EVENT_PAYLOADS;
/** Any delivered event, told apart by `type` (every type of EVENT_TYPES, in its order). */
export const WebhookEvent = z
  .discriminatedUnion('type', [
    P['user.created'],
    P['user.updated'],
    P['guest.created'],
    P['guest.converted'],
    P['wallet.created'],
    P['tx.completed'],
    P['tx.failed'],
    P['session.revoked'],
    P['mfa.enabled'],
    P['mfa.disabled'],
    P['api_key.created'],
    P['api_key.revoked'],
    P['domain.verified'],
    P['billing.subscription.updated'],
  ])
  .openapi('WebhookEvent');

export type WebhookEventPayload = z.infer<typeof WebhookEvent>;

/** The headers of a delivery (spec part 6). */
export const DeliveryHeaders = z.object({
  'X-Service-Signature': z
    .string()
    .regex(/^sha256=[0-9a-f]{64}$/)
    .openapi({ description: 'sha256= and the lowercase hex HMAC-SHA256 of `<timestamp>.<body>` keyed with the webhook secret' }),
  'X-Service-Timestamp': z
    .string()
    .regex(/^\d+$/)
    .openapi({ description: 'Unix seconds of signing; reject a delivery older than 300 s', example: '1795255200' }),
  'X-Service-Event-Id': idOf('evt').openapi({ description: 'The event id, the same on every attempt: use it to drop duplicates' }),
});
