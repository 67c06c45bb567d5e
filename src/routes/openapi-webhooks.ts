/**
 * The document's `webhooks` (OpenAPI 3.1): one POST per event type, with the delivery headers
 * and the payload schema of schemas/events.ts, and what the receiver's answer means (D8, D9).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../middleware/context.js';
import { DeliveryHeaders, EVENT_PAYLOADS, eventTypeName } from '../schemas/events.js';
import { EVENT_TYPES, type EventType } from '../schemas/words.js';
import { DEFAULT_API_VERSION } from '../services/tenant.js';
import { sampleEventData } from '../webhooks/event-types.js';
import type { ApiTag } from '../operations/tags.js';

/** When each event is sent (D8). */
const EMITTED_WHEN: Record<EventType, string> = {
  'user.created':
    'A non-guest user with an e-mail comes into being: POST /users with an email, a passkey registration, a guest conversion. A user without an e-mail (a Telegram sign-up) is not announced.',
  'user.updated': "A user's trust level, name or sign-in methods change (a passkey or Telegram account linked to an existing user).",
  'guest.created': 'POST /guests. A guest is not announced as user.created until it is converted.',
  'guest.converted': 'POST /guests/{id}/convert.',
  'wallet.created': 'POST /users/me/wallet.',
  'tx.completed': 'POST /delegated-sessions/{id}/execute, when the ledger accepted the command.',
  'tx.failed': 'POST /delegated-sessions/{id}/execute, when the ledger rejected the command.',
  'session.revoked': 'DELETE /delegated-sessions/{id} or DELETE /guests/{id}.',
  'mfa.enabled': 'POST /mfa/verify-setup.',
  'mfa.disabled': 'DELETE /mfa.',
  'api_key.created': 'POST /api-keys.',
  'api_key.revoked': 'DELETE /api-keys/{id}.',
  'domain.verified': 'A successful POST /custom-domains/verify.',
  'billing.subscription.updated': "A completed checkout (or a plan switched in the billing portal) changed the tenant's plan.",
};

const FAILURE = {
  description:
    'Any other answer, a redirect, or none within 30 s is a failure: the delivery is retried after 1 min, 5 min, 30 min, 2 h and 24 h, then moved to the DLQ.',
};

/** `user.created` → `userCreatedEvent`. */
function operationIdOf(type: EventType): string {
  const name = eventTypeName(type);
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}Event`;
}

/** A delivered body of the type, with the sample data test events carry (test/openapi-gaps.test.ts validates each against its schema). */
export function examplePayload(type: EventType): Record<string, unknown> {
  return { id: 'evt_SampLe0000000000000001', type, created_at: '2026-11-21T10:00:00.000Z', api_version: DEFAULT_API_VERSION, data: sampleEventData(type) };
}

/** Registers a webhook per event type. */
export function registerWebhooks(v1: OpenAPIHono<AppEnv>): void {
  for (const type of EVENT_TYPES) {
    v1.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      operationId: operationIdOf(type),
      tags: ['Webhooks' satisfies ApiTag],
      summary: `The ${type} event`,
      description: `Sent to every enabled webhook subscribed to ${type} or *, signed with its secret. ${EMITTED_WHEN[type]}`,
      security: [],
      request: {
        headers: DeliveryHeaders,
        body: { required: true, content: { 'application/json': { schema: EVENT_PAYLOADS[type], example: examplePayload(type) } } },
      },
      responses: {
        '2XX': { description: 'Delivered. The receiver should answer quickly and process the event later, once per X-Service-Event-Id.' },
        '4XX': FAILURE,
        '5XX': FAILURE,
      },
    });
  }
}
