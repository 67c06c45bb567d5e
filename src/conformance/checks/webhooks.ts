/** Webhook registrations (spec part 2, 4, 6; D8, D15): create, list, update, delete, validation. */
import { envelope, list } from '../../schemas/common.js';
import { Delivery, Webhook, WebhookWithSecret } from '../../schemas/webhooks.js';
import { verifySignature } from '../../webhooks/signature.js';
import { expect, expectJsonContentType, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { createUser, missingId } from './support.js';
import {
  arrival,
  arrivalTimeout,
  bodyText,
  deliveriesOf,
  expectListedAs,
  expectValidSignature,
  header,
  listedWebhook,
  quietEventType,
  testDelivery,
  userCreatedDelivery,
  wireWebhook,
  type WiredWebhook,
} from './webhook-support.js';

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
    description:
      'PATCH /webhooks/:id with a new url and events: GET /webhooks lists what it sent; the next test event goes to the new url, none to the old, and its delivery is listed',
    spec: 'part 2, part 4, part 6',
    profile: 'spec',
    creates: true,
    readsBack: ['updateWebhook', 'sendTestEvent'],
    run: async (ctx) => {
      const quiet = quietEventType(ctx);
      const hook = await wireWebhook(ctx, 'update', [quiet]);
      // Types the run does not emit: only the test event reaches either url.
      const sent = {
        url: ctx.receiver.endpoint('updated'),
        events: [quiet, 'tx.failed'],
        ...(ctx.profile === 'emulator' ? { description: ctx.name('updated') } : {}),
      };
      expectSuccess(await ctx.client.request('PATCH', `/webhooks/${hook.id}`, { body: sent }), 200, 'part 4: update webhook');
      expectListedAs(await listedWebhook(ctx, hook.id), sent, 'part 4: GET /webhooks lists the url and events PATCH sent');
      const answer = await ctx.client.request('POST', `/webhooks/${hook.id}/test`, { body: {} });
      expectStatus(answer, [200, 201, 202, 204], 'part 6: POST /webhooks/:id/test sends a test event');
      const [delivery] = await arrival(ctx.receiver.waitFor(sent.url, 1, arrivalTimeout(ctx)), 'part 6: events go to the url PATCH set', answer);
      const old = ctx.receiver.received(hook.url).length;
      expect(old === 0, 'part 6: events go to the url PATCH set', `the old url was sent ${old} deliveries after the PATCH`);
      const eventId = header(delivery!, 'x-service-event-id') ?? '(no X-Service-Event-Id)';
      const deliveries = await ctx.client.request('GET', `/webhooks/${hook.id}/deliveries`);
      expectStatus(deliveries, 200, 'part 6: GET /webhooks/:id/deliveries lists the deliveries');
      expect(deliveries.text.includes(eventId), 'part 6: the test event sent is listed in its deliveries', `${eventId} is not listed`, deliveries);
    },
  },
  {
    id: 'webhooks.delete',
    tags: ['webhooks'],
    description: 'DELETE /webhooks/:id removes it: GET /webhooks no longer lists it, and deleting again and its deliveries are 404',
    spec: 'part 4, part 7 (404)',
    profile: 'spec',
    creates: true,
    readsBack: ['deleteWebhook'],
    run: async (ctx) => {
      // A quiet type: a user another check makes meanwhile would leave a delivery waiting on the deleted webhook, in the DLQ.
      const hook = await wireWebhook(ctx, 'delete', [quietEventType(ctx)]);
      expectStatus(await ctx.client.request('DELETE', `/webhooks/${hook.id}`), [200, 204], 'part 4: delete webhook');
      const listed = await listedWebhook(ctx, hook.id);
      expect(listed.item === undefined, 'part 4: a deleted webhook is no longer listed', `${hook.id} is still in GET /webhooks`, listed.result);
      expectError(await ctx.client.request('GET', `/webhooks/${hook.id}/deliveries`), 404, 'part 7: deliveries of a deleted webhook are not found (404)');
      expectError(await ctx.client.request('DELETE', `/webhooks/${hook.id}`), 404, 'part 7: a deleted webhook is not found (404)');
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
    description:
      'POST /webhooks answers 201 with id, url, events, enabled and a whsec_ secret; GET /webhooks lists the url, events and description sent, enabled, and no secret',
    spec: 'D8, D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['createWebhook'],
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'shape', ['user.created']);
      expectStatus(hook.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(hook.result, envelope(WebhookWithSecret), 'D8/D15: the webhook fields and its secret');
      expect(data.url === hook.url && data.enabled, 'D15: the webhook holds the url and is enabled', `${data.url} enabled=${data.enabled}`, hook.result);
      const listing = await ctx.client.webhooks.list();
      const { data: hooks } = expectShape(listing, list(Webhook), 'D7/D15: GET /webhooks is { data: [ webhook ] }');
      const item = hooks.find((h) => h.id === hook.id);
      expectListedAs(
        { result: listing, item },
        { url: hook.url, events: hook.events, description: hook.description, enabled: true },
        'D15: GET /webhooks lists the new webhook as POST sent it, enabled',
      );
      expect(
        item!.createdAt === data.createdAt,
        'D15: GET /webhooks lists the new webhook as POST answered it',
        `createdAt ${item!.createdAt} ≠ ${data.createdAt}`,
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
    description: 'GET /webhooks/:id/deliveries is { data: [delivery] }: the test delivery is listed as its answer gave it, with its attempt',
    spec: 'D9, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { hook, delivery, answer } = await testDelivery(ctx);
      const { data: sent } = expectShape(answer, envelope(Delivery), 'D15: the test answer is the delivery');
      const result = await ctx.client.webhooks.deliveries(hook.id);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries with their attempts');
      const found = data.find((d) => d.eventId === header(delivery, 'x-service-event-id'));
      expect(found !== undefined && found.attempts.length >= 1, 'D9: every attempt is recorded', 'the test delivery is not listed with its attempt', result);
      const rule = 'D9/D15: the deliveries listing reads back the delivery the test answered';
      expect(found.id === sent.id, rule, `listed ${found.id}, answered ${sent.id}`, result);
      expect(found.eventType === sent.eventType && found.webhookId === hook.id, rule, `listed ${found.eventType} of ${found.webhookId}`, result);
      expect(found.status === 'succeeded' && found.nextAttemptAt === null, rule, `listed ${found.status}, nextAttemptAt ${found.nextAttemptAt}`, result);
      expect(
        found.attempts.length === sent.attempts.length && found.attempts[0]!.signedAt === sent.attempts[0]?.signedAt,
        rule,
        `listed ${found.attempts.length} attempts (first signed at ${found.attempts[0]!.signedAt}), answered ${sent.attempts.length}`,
        result,
      );
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
    description: 'a webhook patched to enabled: false gets no delivery for an event it subscribes to; patched to enabled: true it gets the next one',
    spec: 'D8, D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['updateWebhook'],
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'disabled', ['user.created']);
      expectStatus(await ctx.client.webhooks.update(hook.id, { enabled: false }), 200, 'D15: PATCH enabled');
      // Users that other checks made while it was still enabled got deliveries: count from here.
      const before = await deliveriesOf(ctx, hook.id, 'user.created');
      await createUser(ctx, 'disabled');
      const after = await deliveriesOf(ctx, hook.id, 'user.created');
      expect(
        after.count === before.count,
        'D8: a disabled webhook is sent nothing',
        `${after.count - before.count} deliveries planned after it was disabled`,
        after.result,
      );
      expectStatus(await ctx.client.webhooks.update(hook.id, { enabled: true }), 200, 'D15: PATCH enabled');
      await expectSentUser(ctx, hook, after.count, 'D8: a webhook enabled again is sent the events it subscribes to');
    },
  },
  {
    id: 'webhooks.subscription',
    tags: ['webhooks'],
    description:
      'a webhook gets only the event types it subscribes to: none other at first; after PATCH events adds user.created, the next user is delivered; after PATCH drops it, the next is not',
    spec: 'part 6 (a webhook subscribes through its events field), D8',
    profile: 'emulator',
    creates: true,
    readsBack: ['createWebhook', 'updateWebhook'],
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'subscription', ['api_key.revoked']);
      await createUser(ctx, 'subscription');
      const result = await ctx.client.webhooks.deliveries(hook.id);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries list');
      const stray = data.find((d) => d.eventType !== 'api_key.revoked');
      expect(stray === undefined, 'part 6: webhooks receive only the types in their events', `got a ${stray?.eventType} delivery`, result);
      expectStatus(await ctx.client.webhooks.update(hook.id, { events: ['user.created'] }), 200, 'D15: PATCH events');
      await expectSentUser(ctx, hook, 0, 'part 6: a webhook is sent the types PATCH added to its events');
      expectStatus(await ctx.client.webhooks.update(hook.id, { events: ['api_key.revoked'] }), 200, 'D15: PATCH events');
      // Users other checks made while it subscribed got deliveries: count from here.
      const before = await deliveriesOf(ctx, hook.id, 'user.created');
      await createUser(ctx, 'unsubscribed');
      const after = await deliveriesOf(ctx, hook.id, 'user.created');
      expect(
        after.count === before.count,
        'part 6: a webhook is sent no type PATCH removed from its events',
        `${after.count - before.count} user.created deliveries planned after user.created was removed`,
        after.result,
      );
    },
  },
];

/**
 * Makes a user and holds the webhook to be sent its `user.created`: planned at once (more
 * `user.created` deliveries listed than `had`, D8) and received, the body naming the user.
 */
async function expectSentUser(ctx: CheckContext, hook: WiredWebhook, had: number, rule: string): Promise<void> {
  const user = await createUser(ctx, 'subscribed');
  const planned = await deliveriesOf(ctx, hook.id, 'user.created');
  expect(planned.count > had, rule, 'no user.created delivery was planned for the new user', planned.result);
  await arrival(
    ctx.receiver.waitForMatch(hook.url, (d) => bodyText(d).includes(user.id), arrivalTimeout(ctx)),
    rule,
    user.result,
  );
}
