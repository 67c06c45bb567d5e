/** Webhook registrations (spec part 2, 4, 6; D8, D15): create, list, update, delete, validation. */
import { envelope, list } from '../../schemas/common.js';
import { Delivery, Webhook, WebhookWithSecret } from '../../schemas/webhooks.js';
import { verifySignature } from '../../webhooks/signature.js';
import { expect, expectJsonContentType, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { createUser, missingId } from './support.js';
import { arrival, arrivalTimeout, expectValidSignature, header, quietEventType, testDelivery, userCreatedDelivery, wireWebhook } from './webhook-support.js';

const BAD_BODIES = [
  { why: 'url missing', body: { events: ['user.created'] } },
  { why: 'events missing', body: { url: 'http://127.0.0.1:9/conformance' } },
  { why: 'url not an absolute HTTP URL', body: { url: 'not a url', events: ['user.created'] } },
  { why: 'events not an array', body: { url: 'http://127.0.0.1:9/conformance', events: 'user.created' } },
] as const;

export const webhookChecks: Check[] = [
  {
    id: 'webhooks.create',
    tags: ['webhooks'],
    description: 'POST /webhooks {url, events} creates a webhook, answered in the success envelope with its id',
    spec: 'part 2 (webhook registration input), part 4',
    profile: 'spec',
    creates: true,
    run: async (ctx) => void (await wireWebhook(ctx, 'create', ['user.created'])),
  },
  ...BAD_BODIES.map(({ why, body }, index): Check => ({
    id: `webhooks.bad-body.${['no-url', 'no-events', 'bad-url', 'events-not-array'][index]}`,
    tags: ['webhooks', 'validation'],
    description: `POST /webhooks with ${why} is 400 with the error envelope (details an array)`,
    spec: 'part 2 (url, events required), part 7 (400)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectError(await ctx.client.request('POST', '/webhooks', { body }), 400, `part 2/7: ${why} is a bad request (400)`),
  })),
  {
    id: 'webhooks.list',
    tags: ['webhooks'],
    description: 'GET /webhooks answers 200 with JSON',
    spec: 'part 4',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', '/webhooks');
      expectStatus(result, 200, 'part 4: list webhooks');
      expectJsonContentType(result, 'part 4: answers are JSON');
    },
  },
  {
    id: 'webhooks.update',
    tags: ['webhooks'],
    description: 'PATCH /webhooks/:id with new events answers the success envelope',
    spec: 'part 2, part 4',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'update', ['user.created']);
      expectSuccess(
        await ctx.client.request('PATCH', `/webhooks/${hook.id}`, { body: { events: ['user.created', 'tx.completed'] } }),
        200,
        'part 4: update webhook',
      );
    },
  },
  {
    id: 'webhooks.delete',
    tags: ['webhooks'],
    description: 'DELETE /webhooks/:id removes it: deleting again and its deliveries are 404',
    spec: 'part 4, part 7 (404)',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      // A quiet type: a user another check makes meanwhile would leave a delivery waiting on the deleted webhook, in the DLQ.
      const hook = await wireWebhook(ctx, 'delete', [quietEventType(ctx)]);
      expectStatus(await ctx.client.request('DELETE', `/webhooks/${hook.id}`), [200, 204], 'part 4: delete webhook');
      expectError(await ctx.client.request('DELETE', `/webhooks/${hook.id}`), 404, 'part 7: a deleted webhook is not found (404)');
      expectError(await ctx.client.request('GET', `/webhooks/${hook.id}/deliveries`), 404, 'part 7: deliveries of a deleted webhook are not found (404)');
    },
  },
  {
    id: 'webhooks.unknown-id',
    tags: ['webhooks'],
    description: 'PATCH, DELETE, test and deliveries of a webhook that does not exist are 404',
    spec: 'part 7 (404)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const id = missingId(ctx, 'whk');
      expectError(await ctx.client.request('PATCH', `/webhooks/${id}`, { body: { events: ['user.created'] } }), 404, 'part 7: unknown webhook → 404');
      expectError(await ctx.client.request('DELETE', `/webhooks/${id}`), 404, 'part 7: unknown webhook → 404');
      expectError(await ctx.client.request('POST', `/webhooks/${id}/test`, { body: {} }), 404, 'part 7: unknown webhook → 404');
      expectError(await ctx.client.request('GET', `/webhooks/${id}/deliveries`), 404, 'part 7: unknown webhook → 404');
    },
  },
  {
    id: 'webhooks.deliveries',
    tags: ['webhooks'],
    description: 'GET /webhooks/:id/deliveries answers 200 with JSON after a test event',
    spec: 'part 4, part 6',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const { hook } = await testDelivery(ctx);
      const result = await ctx.client.request('GET', `/webhooks/${hook.id}/deliveries`);
      expectStatus(result, 200, 'part 6: GET /webhooks/:id/deliveries lists deliveries');
      expectJsonContentType(result, 'part 4: answers are JSON');
    },
  },
  {
    id: 'webhooks.create-shape',
    tags: ['webhooks'],
    description: 'POST /webhooks answers 201 with id, url, events, enabled and a whsec_ secret; listings carry no secret',
    spec: 'D8, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'shape', ['user.created']);
      expectStatus(hook.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(hook.result, envelope(WebhookWithSecret), 'D8/D15: the webhook fields and its secret');
      expect(data.url === hook.url && data.enabled, 'D15: the webhook holds the url and is enabled', `${data.url} enabled=${data.enabled}`, hook.result);
      const listing = await ctx.client.webhooks.list();
      const { data: hooks } = expectShape(listing, list(Webhook), 'D7/D15: GET /webhooks is { data: [ webhook ] }');
      expect(
        hooks.some((h) => h.id === hook.id),
        'D15: a new webhook is listed',
        `${hook.id} is missing`,
        listing,
      );
      expect(!listing.text.includes(data.secret), 'D8: the secret is answered once, never in listings', 'GET /webhooks shows a secret', listing);
    },
  },
  {
    id: 'webhooks.bad-event-type',
    tags: ['webhooks', 'validation'],
    description: 'POST /webhooks with an event type that is not one of D8 (or none) is 400 validation_error',
    spec: 'D6, D8',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const events of [['conformance.nope'], []]) {
        expectErrorCode(
          await ctx.client.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/x', events } }),
          400,
          'validation_error',
          `D8: events ${JSON.stringify(events)} is 400`,
        );
      }
    },
  },
  {
    id: 'webhooks.test-answer',
    tags: ['webhooks', 'delivery'],
    description: 'POST /webhooks/:id/test answers the delivery (succeeded, one attempt, same event id), of the first subscribed type',
    spec: 'D8, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { answer, delivery, payload } = await testDelivery(ctx);
      const { data } = expectShape(answer, envelope(Delivery), 'D15: the test answer is the delivery');
      expect(
        data.eventId === header(delivery, 'x-service-event-id'),
        'D15: the delivery eventId is the event sent',
        `${data.eventId} ≠ ${header(delivery, 'x-service-event-id')}`,
        answer,
      );
      expect(
        data.status === 'succeeded' && data.attempts.length === 1 && data.attempts[0]!.statusCode === 200,
        'D9: a 2xx answer is a succeeded delivery with its attempt',
        `status ${data.status}, ${data.attempts.length} attempts`,
        answer,
      );
      const type = quietEventType(ctx);
      expect(
        payload['type'] === type && data.eventType === type,
        'D8: the test event type is the webhook first type',
        `type ${String(payload['type'])}, subscribed to ${type}`,
        answer,
      );
      expect(
        String(data.attempts[0]!.signedAt) === header(delivery, 'x-service-timestamp'),
        'D9: the attempt records the timestamp it was signed with',
        `${data.attempts[0]!.signedAt}`,
        answer,
      );
    },
  },
  {
    id: 'webhooks.api-version-pinned',
    tags: ['webhooks', 'delivery', 'tenant'],
    description: "a payload's api_version is the tenant's pinned settings.apiVersion",
    spec: 'D8',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { payload } = await userCreatedDelivery(ctx);
      const tenant = await ctx.client.tenant.get();
      const pinned = tenant.ok ? tenant.body.data.settings.apiVersion : undefined;
      expect(
        payload['api_version'] === pinned,
        'D8: api_version is the tenant pinned date',
        `payload ${String(payload['api_version'])}, tenant ${pinned}`,
        tenant,
      );
    },
  },
  {
    id: 'webhooks.deliveries-shape',
    tags: ['webhooks'],
    description: 'GET /webhooks/:id/deliveries is { data: [delivery] } with each attempt',
    spec: 'D9, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { hook, delivery } = await testDelivery(ctx);
      const result = await ctx.client.webhooks.deliveries(hook.id);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries with their attempts');
      const found = data.find((d) => d.eventId === header(delivery, 'x-service-event-id'));
      expect(found !== undefined && found.attempts.length >= 1, 'D9: every attempt is recorded', 'the test delivery is not listed with its attempt', result);
    },
  },
  {
    id: 'webhooks.rotate-secret',
    tags: ['webhooks', 'delivery'],
    description: 'PATCH rotateSecret: true answers a new secret, and the next delivery is signed with it',
    spec: 'D8',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'rotate', [quietEventType(ctx)]);
      const rotated = await ctx.client.webhooks.update(hook.id, { rotateSecret: true });
      const secret = rotated.ok ? rotated.body.data.secret : undefined;
      expect(
        typeof secret === 'string' && secret !== hook.secret,
        'D8: rotateSecret issues a new secret, answered once',
        'no new secret in the answer',
        rotated,
      );
      const answer = await ctx.client.webhooks.test(hook.id);
      const [delivery] = await arrival(ctx.receiver.waitFor(hook.url, 1, arrivalTimeout(ctx)), 'D8: the test event is delivered', answer);
      expectValidSignature(delivery!, secret, 'D8: after rotation deliveries are signed with the new secret');
      let oldStillWorks = true;
      try {
        verifySignature({
          secret: hook.secret ?? '',
          body: delivery!.body,
          signature: header(delivery!, 'x-service-signature'),
          timestamp: header(delivery!, 'x-service-timestamp'),
        });
      } catch {
        oldStillWorks = false;
      }
      expect(!oldStillWorks, 'D8: the old secret no longer signs', 'the delivery verifies under the old secret too');
    },
  },
  {
    id: 'webhooks.disabled',
    tags: ['webhooks'],
    description: 'a webhook patched to enabled: false gets no delivery for an event it subscribes to',
    spec: 'D8, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'disabled', ['user.created']);
      expectStatus(await ctx.client.webhooks.update(hook.id, { enabled: false }), 200, 'D15: PATCH enabled');
      // Users that other checks made while it was still enabled got deliveries: count from here.
      const before = expectShape(await ctx.client.webhooks.deliveries(hook.id), list(Delivery), 'D9: deliveries list').data.length;
      // Deliveries are planned in the event's own write (D8), so once POST /users answers they exist.
      await createUser(ctx, 'disabled');
      const result = await ctx.client.webhooks.deliveries(hook.id);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries list');
      expect(data.length === before, 'D8: a disabled webhook is sent nothing', `${data.length - before} deliveries planned after it was disabled`, result);
    },
  },
  {
    id: 'webhooks.subscription',
    tags: ['webhooks'],
    description: 'a webhook gets only the event types it subscribes to',
    spec: 'part 6 (a webhook subscribes through its events field), D8',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'subscription', ['api_key.revoked']);
      await createUser(ctx, 'subscription');
      const result = await ctx.client.webhooks.deliveries(hook.id);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries list');
      const stray = data.find((d) => d.eventType !== 'api_key.revoked');
      expect(stray === undefined, 'part 6: webhooks receive only the types in their events', `got a ${stray?.eventType} delivery`, result);
    },
  },
];
