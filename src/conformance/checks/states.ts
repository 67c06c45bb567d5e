/**
 * States a read or a listing reports, checked against what the run did to the record
 * (docs/conformance.md#every-effect-read-back): a webhook's enabled flag and events in the
 * listing after a PATCH, a revoked key in the key listing (and refused), a user's trust level in
 * its read, its listing and the listing's filter, and a delivery in each status filter. A
 * deployment that answers the right shape with a stale or wrong state fails here.
 */
import { envelope, list } from '../../schemas/common.js';
import { User } from '../../schemas/users.js';
import { Delivery, Webhook } from '../../schemas/webhooks.js';
import { ApiKey } from '../../schemas/api-keys.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import type { Check } from '../types.js';
import { createKey, createUser } from './support.js';
import { quietEventType, testDelivery, wireWebhook } from './webhook-support.js';

export const stateChecks: Check[] = [
  {
    id: 'webhooks.listed-state',
    tags: ['webhooks', 'states'],
    description: 'after PATCH {enabled: false, events}, GET /webhooks lists the webhook disabled with the new events; after {enabled: true} enabled again',
    spec: 'part 4 (webhooks), D8, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'listed-state', [quietEventType(ctx)]);
      const listed = async () => {
        const result = await ctx.client.webhooks.list();
        return { result, item: expectShape(result, list(Webhook), 'D15: GET /webhooks').data.find((h) => h.id === hook.id) };
      };
      const events = ['api_key.created', 'tx.failed'] as const;
      expectStatus(await ctx.client.webhooks.update(hook.id, { enabled: false, events: [...events] }), 200, 'D15: PATCH /webhooks/:id');
      const off = await listed();
      expect(off.item !== undefined, 'part 4: a webhook is listed', 'the webhook is not listed', off.result);
      expect(off.item.enabled === false, 'D15: the listing reports the state the PATCH set', 'listed enabled after enabled: false', off.result);
      expect(
        JSON.stringify([...off.item.events].sort()) === JSON.stringify(events),
        'D15: the listing reports the events the PATCH set',
        `listed events ${JSON.stringify(off.item.events)}`,
        off.result,
      );
      expectStatus(await ctx.client.webhooks.update(hook.id, { enabled: true }), 200, 'D15: PATCH /webhooks/:id');
      const on = await listed();
      expect(on.item?.enabled === true, 'D15: the listing reports the state the PATCH set', 'listed disabled after enabled: true', on.result);
    },
  },
  {
    id: 'api-keys.listed-state',
    tags: ['api-keys', 'states'],
    description: 'a new key is listed active with revokedAt null; once revoked it is listed revoked with revokedAt set, and the others keep their state',
    spec: 'part 4 (Revoke API key), D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['revokeApiKey'],
    run: async (ctx) => {
      const key = await createKey(ctx, 'listed-state');
      const keep = await createKey(ctx, 'listed-kept');
      const listed = async () => {
        const result = await ctx.client.apiKeys.list();
        const data = expectShape(result, list(ApiKey), 'D15: GET /api-keys').data;
        return { result, mine: data.find((k) => k.id === key.id), other: data.find((k) => k.id === keep.id) };
      };
      const before = await listed();
      expect(before.mine?.status === 'active' && before.mine.revokedAt === null, 'D15: a new key is listed active', JSON.stringify(before.mine), before.result);
      const revoked = await ctx.client.apiKeys.revoke(key.id);
      expectStatus(revoked, 200, 'part 4: DELETE /api-keys/:id');
      const after = await listed();
      expect(
        after.mine?.status === 'revoked' && typeof after.mine.revokedAt === 'string',
        'D15: a revoked key is listed revoked, with revokedAt',
        JSON.stringify(after.mine),
        after.result,
      );
      const answered = expectShape(revoked, envelope(ApiKey), 'D15: revoke answers the key').data;
      expect(
        after.mine.revokedAt === answered.revokedAt,
        'D15: the listing reports the revokedAt the revocation answered',
        `listed ${after.mine.revokedAt}, answered ${answered.revokedAt}`,
        after.result,
      );
      // The state is the behaviour: the key listed revoked is refused.
      const refused = await ctx.client.request('GET', '/tenant', { apiKey: key.value });
      expect(refused.status === 401, 'D3: a key listed revoked is refused (401)', `GET /tenant with it answered ${refused.status}`, refused);
      expect(
        after.other?.status === 'active' && after.other.revokedAt === null,
        'D15: revoking one key leaves the others active',
        JSON.stringify(after.other),
        after.result,
      );
    },
  },
  {
    id: 'users.trust-level-read',
    tags: ['users', 'states'],
    description: 'GET /users/:id and the listing report the trust level each user was created with (basic by default, verified, trusted)',
    spec: 'part 4 (users), D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['createUser'],
    run: async (ctx) => {
      for (const level of [undefined, 'verified', 'trusted'] as const) {
        const user = await createUser(ctx, `level-${level ?? 'default'}`, level === undefined ? {} : { trustLevel: level });
        const want = level ?? 'basic';
        const read = await ctx.client.users.get(user.id);
        const { data } = expectShape(read, envelope(User), 'D15: GET /users/:id');
        expect(data.trustLevel === want, 'D15: a read reports the trust level the user has', `${data.trustLevel}, created ${want}`, read);
        const page = await ctx.client.users.list({ search: user.email });
        const listed = page.ok ? (page.body.data as Array<{ id: string; trustLevel: string }>).find((u) => u.id === user.id) : undefined;
        expect(listed?.trustLevel === want, 'D15: the listing reports the trust level the user has', `${listed?.trustLevel}, created ${want}`, page);
        // The filter for that state agrees with the state listed: the user is found under its level.
        const filtered = await ctx.client.users.list({ search: user.email, trust_level: want });
        expect(
          filtered.ok && filtered.body.data.some((u) => u.id === user.id),
          "D7: the listing's trust_level filter finds the user under the level it reports",
          `not listed under ${want}`,
          filtered,
        );
      }
    },
  },
  {
    id: 'webhooks.delivery-status-filter',
    tags: ['webhooks', 'states'],
    description: 'a test delivery answered 2xx is listed succeeded: in ?status=succeeded, and in neither ?status=failed, pending nor dead',
    spec: 'part 6, D9',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const { hook, answer } = await testDelivery(ctx);
      const id = (answer.body as { data?: { id?: string } } | undefined)?.data?.id;
      expect(typeof id === 'string', 'D9: the test answers the delivery', 'no delivery id', answer);
      for (const status of ['succeeded', 'failed', 'pending', 'dead'] as const) {
        const result = await ctx.client.webhooks.deliveries(hook.id, { status });
        const { data } = expectShape(result, list(Delivery), 'D9: GET /webhooks/:id/deliveries?status=');
        const wrong = data.find((d) => d.status !== status);
        expect(wrong === undefined, `D9: ?status=${status} lists only ${status} deliveries`, `${wrong?.id} is ${wrong?.status}`, result);
        const has = data.some((d) => d.id === id);
        expect(has === (status === 'succeeded'), `D9: the delivery is listed under the status it has`, `${has ? 'listed' : 'missing'} under ${status}`, result);
      }
    },
  },
];
