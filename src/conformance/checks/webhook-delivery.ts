/**
 * The delivery contract (spec part 2, 6, 8, 9), checked on a test event and on a real
 * `user.created` received by the suite's own receiver: headers, signature over the exact
 * bytes, timestamp in seconds and fresh, event id header = body id, the payload's fields.
 */
import { EventPayload, UserCreatedData } from '../../schemas/webhooks.js';
import { IsoTimestamp } from '../../schemas/common.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../../webhooks/signature.js';
import { describeIssues, expect } from '../expect.js';
import type { Check, CheckContext } from '../types.js';
import { describeDelivery, expectHeader, expectValidSignature, header, testDelivery, userCreatedDelivery, type TestDelivery } from './webhook-support.js';

type Source = { key: string; label: string; get: (ctx: CheckContext) => Promise<TestDelivery> };

const SOURCES: Source[] = [
  { key: 'test-event', label: 'a test event (POST /webhooks/:id/test)', get: testDelivery },
  { key: 'user-created', label: 'a real user.created (POST /users)', get: userCreatedDelivery },
];

/** Clock skew allowed between the suite's host and the target when judging "seconds, not milliseconds". */
const FUTURE_SKEW_SECONDS = 60;

type Rule = Omit<Check, 'id' | 'tags' | 'profile' | 'creates' | 'run'> & { rule: string; verify: (d: TestDelivery, ctx: CheckContext) => void };

const RULES: Rule[] = [
  {
    rule: 'post-json',
    description: 'is an HTTP POST with Content-Type application/json',
    spec: 'part 6 (delivery headers)',
    verify: ({ delivery }) => {
      expect(delivery.method === 'POST', 'part 6: events are sent by HTTP POST', `method ${delivery.method}`);
      const type = (header(delivery, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      expect(type === 'application/json', 'part 6: Content-Type: application/json', `Content-Type is "${header(delivery, 'content-type') ?? '(missing)'}"`);
    },
  },
  {
    rule: 'headers',
    description: 'carries X-Service-Signature, X-Service-Timestamp and X-Service-Event-Id',
    spec: 'part 6 (delivery headers)',
    verify: ({ delivery }) => {
      for (const name of [SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_ID_HEADER]) expectHeader(delivery, name, `part 6: every delivery carries ${name}`);
    },
  },
  {
    rule: 'signature-format',
    description: 'X-Service-Signature is sha256= followed by 64 lowercase hex digits',
    spec: 'part 6 (delivery headers; signature scheme 3)',
    verify: ({ delivery }) => {
      const value = expectHeader(delivery, SIGNATURE_HEADER, 'part 6: X-Service-Signature is present');
      expect(/^sha256=[0-9a-f]{64}$/.test(value), 'part 6: X-Service-Signature is "sha256=" + lowercase hex HMAC-SHA256', `got "${value}"`);
    },
  },
  {
    rule: 'signature',
    description: 'the signature is HMAC-SHA256 with the webhook secret over <timestamp>.<exact body bytes>',
    spec: 'part 6 (signature scheme 1–3)',
    verify: ({ delivery, hook }) =>
      expectValidSignature(delivery, hook.secret, 'part 6: signature = sha256= + hex HMAC-SHA256(secret, "<timestamp>.<body>") over the bytes sent'),
  },
  {
    rule: 'timestamp-seconds',
    description: 'X-Service-Timestamp is Unix time in whole seconds (not milliseconds)',
    spec: 'part 6 (delivery headers)',
    verify: ({ delivery }) => {
      const value = expectHeader(delivery, TIMESTAMP_HEADER, 'part 6: X-Service-Timestamp is present');
      expect(/^\d+$/.test(value), 'part 6: X-Service-Timestamp is a Unix timestamp in seconds', `got "${value}"`);
      const now = Date.now() / 1000;
      expect(
        Number(value) < now + FUTURE_SKEW_SECONDS,
        'part 6: X-Service-Timestamp is in seconds, not milliseconds',
        `${value} lies ${Math.round(Number(value) - now)} s in the future`,
      );
    },
  },
  {
    rule: 'timestamp-fresh',
    description: `X-Service-Timestamp is the time of signing: within ${SIGNATURE_TOLERANCE_SECONDS} s of arrival`,
    spec: 'part 6 (signature scheme 5), part 8',
    verify: ({ delivery }) => {
      const value = Number(expectHeader(delivery, TIMESTAMP_HEADER, 'part 6: X-Service-Timestamp is present'));
      const age = delivery.receivedAt / 1000 - value;
      expect(
        age <= SIGNATURE_TOLERANCE_SECONDS,
        'part 6.5: a receiver rejects timestamps older than 300 s, so deliveries are signed when sent',
        `the timestamp was ${Math.round(age)} s old on arrival; ${describeDelivery(delivery)}`,
      );
      expect(age >= -FUTURE_SKEW_SECONDS, 'part 6: X-Service-Timestamp is the time of signing', `the timestamp lies ${Math.round(-age)} s after arrival`);
    },
  },
  {
    rule: 'event-id',
    description: 'X-Service-Event-Id equals the body id, which starts with evt_',
    spec: 'part 2 (event payload id), part 6 (X-Service-Event-Id)',
    verify: ({ delivery, payload }) => {
      const value = expectHeader(delivery, EVENT_ID_HEADER, 'part 6: X-Service-Event-Id is present');
      expect(value === payload['id'], 'part 6: X-Service-Event-Id is the event id (the body id)', `header ${value}, body id ${JSON.stringify(payload['id'])}`);
      expect(/^evt_/.test(value), 'part 2: event ids have the prefix evt_', `got ${value}`);
    },
  },
  {
    rule: 'payload',
    description: 'the body is the event payload: id, type (dotted), created_at, api_version, data (object)',
    spec: 'part 2 (webhook event payload)',
    verify: ({ payload }) => {
      const parsed = EventPayload.safeParse(payload);
      expect(
        parsed.success,
        'part 2: the event payload fields',
        parsed.success ? '' : `${describeIssues(parsed.error)}; body ${JSON.stringify(payload).slice(0, 300)}`,
      );
    },
  },
  {
    rule: 'created-at',
    description: 'created_at is ISO 8601 UTC with milliseconds',
    spec: 'part 2 (created_at)',
    verify: ({ payload }) => {
      const value = payload['created_at'];
      expect(
        IsoTimestamp.safeParse(value).success && !Number.isNaN(Date.parse(String(value))),
        'part 2: created_at is an ISO 8601 UTC timestamp with milliseconds',
        `got ${JSON.stringify(value)}`,
      );
    },
  },
  {
    rule: 'api-version',
    description: 'api_version is a real date YYYY-MM-DD',
    spec: 'part 2 (api_version), part 9.2',
    verify: ({ payload }) => {
      const value = String(payload['api_version']);
      const real = /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
      expect(real, 'part 9.2: every payload carries api_version, a date YYYY-MM-DD', `got ${JSON.stringify(payload['api_version'])}`);
    },
  },
];

const deliveryChecks: Check[] = SOURCES.flatMap((source) =>
  RULES.map(({ rule, description, spec, verify }): Check => ({
    id: `webhooks.${source.key}.${rule}`,
    tags: ['webhooks', 'delivery'],
    description: `${source.label}: ${description}`,
    spec,
    profile: 'spec',
    creates: true,
    run: async (ctx) => verify(await source.get(ctx), ctx),
  })),
);

export const webhookDeliveryChecks: Check[] = [
  ...deliveryChecks,
  {
    id: 'webhooks.user-created.data',
    tags: ['webhooks', 'delivery', 'users'],
    description: 'user.created data holds userId (the new user), email (as sent) and partyId (string)',
    spec: 'part 2 (user.created data)',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const { payload, user } = await userCreatedDelivery(ctx);
      expect(payload['type'] === 'user.created', 'part 6: the event type is user.created', `type ${JSON.stringify(payload['type'])}`);
      const data = UserCreatedData.safeParse(payload['data']);
      expect(data.success, 'part 2: user.created data holds userId, email, partyId', data.success ? '' : describeIssues(data.error));
      expect(data.data.userId === user.id, 'part 2: data.userId is the created user', `${data.data.userId} ≠ ${user.id}`);
      expect(data.data.email.toLowerCase() === user.email.toLowerCase(), 'part 2: data.email is the user e-mail', `${data.data.email} ≠ ${user.email}`);
      expect(data.data.partyId !== '', 'part 2: data.partyId is the user party identifier', 'empty partyId');
    },
  },
  {
    id: 'webhooks.event-ids-unique',
    tags: ['webhooks', 'delivery'],
    description: 'different events carry different event ids',
    spec: 'part 2 (unique event identifier), part 6',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const [a, b] = [await testDelivery(ctx), await userCreatedDelivery(ctx)];
      expect(a.payload['id'] !== b.payload['id'], 'part 2: event ids are unique', `both events are ${String(a.payload['id'])}`);
    },
  },
];
