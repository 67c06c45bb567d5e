/**
 * Tenant isolation (D3) with --second-api-key: another tenant's records are never
 * answered, changed or listed. The spec profile wants "not 2xx and not revealed"; the
 * emulator profile wants exactly 404 (never 403, so existence does not leak).
 */
import { expect } from '../expect.js';
import type { ApiResult } from '../../client/index.js';
import type { Check, CheckContext } from '../types.js';
import { createRunApp, createKey, createUser, secondClient } from './support.js';
import { quietEventType, wireWebhook } from './webhook-support.js';

const RULE = 'D3/part 5: a key acts for its own tenant only';

function expectRefused(ctx: CheckContext, result: ApiResult<unknown>, secret: string): void {
  expect(!result.ok, RULE, `another tenant's key got ${result.status}`, result);
  expect(!result.text.includes(secret), RULE, "the answer reveals the other tenant's record", result);
  if (ctx.profile === 'emulator') expect(result.status === 404, "D3: another tenant's record is answered 404, never 403", `got ${result.status}`, result);
}

const base = { tags: ['isolation', 'tenant'], profile: 'spec' as const, creates: true, needsSecondKey: true, spec: 'part 5.1, D3' };

export const isolationChecks: Check[] = [
  {
    ...base,
    id: 'isolation.tenants-differ',
    creates: false,
    description: 'the two keys act for different tenants (GET /tenant answers differ)',
    run: async (ctx) => {
      const [a, b] = [await ctx.client.request('GET', '/tenant'), await secondClient(ctx).request('GET', '/tenant')];
      expect(a.ok && b.ok && a.text !== b.text, RULE, 'both keys answer the same tenant; pass a key of another tenant', b);
    },
  },
  {
    ...base,
    id: 'isolation.apps',
    description: "another tenant's key cannot read, change or delete an app, and does not see it listed",
    run: async (ctx) => {
      const other = secondClient(ctx);
      const app = await createRunApp(ctx, 'isolated');
      expectRefused(ctx, await other.request('GET', `/apps/${app.id}`), app.name);
      expectRefused(ctx, await other.request('PATCH', `/apps/${app.id}`, { body: { name: ctx.name('stolen') } }), app.name);
      expectRefused(ctx, await other.request('DELETE', `/apps/${app.id}`), app.name);
      const listing = await other.request('GET', '/apps');
      expect(!listing.text.includes(app.id), RULE, "another tenant's app is listed", listing);
      const still = await ctx.client.request('GET', `/apps/${app.id}`);
      expect(still.ok && !still.text.includes('stolen'), RULE, 'the app was changed or deleted by another tenant', still);
    },
  },
  {
    ...base,
    id: 'isolation.users',
    description: "another tenant's key cannot read a user, and does not find it by search",
    run: async (ctx) => {
      const other = secondClient(ctx);
      const user = await createUser(ctx, 'isolated');
      expectRefused(ctx, await other.request('GET', `/users/${user.id}`), user.email);
      const listing = await other.request('GET', '/users', { query: { search: user.email } });
      expect(!listing.text.includes(user.id), RULE, "another tenant's user is listed", listing);
    },
  },
  {
    ...base,
    id: 'isolation.webhooks',
    description: "another tenant's key cannot change, delete, test or list deliveries of a webhook",
    run: async (ctx) => {
      const other = secondClient(ctx);
      // Subscribed to a type the run does not emit, so the only request it could get is a test event.
      const hook = await wireWebhook(ctx, 'isolated', [quietEventType(ctx)]);
      expectRefused(ctx, await other.request('PATCH', `/webhooks/${hook.id}`, { body: { url: 'http://127.0.0.1:9/stolen' } }), hook.url);
      expectRefused(ctx, await other.request('POST', `/webhooks/${hook.id}/test`, { body: {} }), hook.url);
      expectRefused(ctx, await other.request('GET', `/webhooks/${hook.id}/deliveries`), hook.url);
      expectRefused(ctx, await other.request('DELETE', `/webhooks/${hook.id}`), hook.url);
      const listing = await other.request('GET', '/webhooks');
      expect(!listing.text.includes(hook.id), RULE, "another tenant's webhook is listed", listing);
      expect(ctx.receiver.received(hook.url).length === 0, RULE, "another tenant's key made the webhook send a test event");
    },
  },
  {
    ...base,
    id: 'isolation.api-keys',
    description: "another tenant's key cannot revoke a key, nor see it listed",
    run: async (ctx) => {
      const other = secondClient(ctx);
      const key = await createKey(ctx, 'isolated');
      expectRefused(ctx, await other.request('DELETE', `/api-keys/${key.id}`), key.value);
      const listing = await other.request('GET', '/api-keys');
      expect(!listing.text.includes(key.id), RULE, "another tenant's key is listed", listing);
      const still = await ctx.client.request('GET', '/tenant', { apiKey: key.value });
      expect(still.ok, RULE, 'the key was revoked by another tenant', still);
    },
  },
];
