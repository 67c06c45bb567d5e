/** API keys (spec part 4, 5.2; D3, D15): the value is shown once and never listed. */
import { ApiKey, CreatedApiKey } from '../../schemas/api-keys.js';
import { envelope, list } from '../../schemas/common.js';
import { expect, expectJsonContentType, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';
import { createKey, expectReadBack, missingId } from './support.js';

export const apiKeyChecks: Check[] = [
  {
    id: 'api-keys.list',
    tags: ['api-keys'],
    description: 'GET /api-keys answers 200 with JSON',
    spec: 'part 4',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', '/api-keys');
      expectStatus(result, 200, 'part 4: list API keys');
      expectJsonContentType(result, 'part 4: answers are JSON');
    },
  },
  {
    id: 'api-keys.value-once',
    tags: ['api-keys'],
    description: 'the creation answer holds a working key value, and no listing ever shows it',
    spec: 'part 4 (API keys: value returned only once), part 5.2',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const key = await createKey(ctx, 'once');
      const listing = await ctx.client.request('GET', '/api-keys');
      expectStatus(listing, 200, 'part 4: list API keys');
      expect(
        !listing.text.includes(key.value),
        'part 4: the key value is returned only once, in the creation response',
        'GET /api-keys shows the value',
        listing,
      );
      expect(
        !listing.text.includes(key.value.slice(0, -4)),
        'part 4: the key value is returned only once',
        'GET /api-keys shows all but the last 4 characters of the value',
        listing,
      );
      const again = await ctx.client.request('GET', `/api-keys/${key.id}`);
      expect(!again.text.includes(key.value), 'part 4: the key value is returned only once', `GET /api-keys/${key.id} shows the value`, again);
    },
  },
  {
    id: 'api-keys.shape',
    tags: ['api-keys'],
    description: 'POST /api-keys answers 201 with id, name, prefix, last4, createdAt and key (sk_test_ + 32 base62); listings carry no key',
    spec: 'D3, D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['createApiKey'],
    run: async (ctx) => {
      // createKey has read the key back already: its value authenticates GET /tenant.
      const key = await createKey(ctx, 'shape');
      expectStatus(key.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(key.result, envelope(CreatedApiKey), 'D3/D15: the created key fields');
      expect(
        key.value.startsWith(data.prefix) && key.value.endsWith(data.last4),
        'D3: prefix and last4 are parts of the value',
        `${data.prefix}…${data.last4}`,
        key.result,
      );
      const listing = await ctx.client.apiKeys.list();
      const { data: keys } = expectShape(listing, list(ApiKey), 'D7/D15: GET /api-keys is { data: [ key ] }');
      const listed = keys.find((k) => k.id === key.id) as Record<string, unknown> | undefined;
      expect(listed !== undefined, 'D3: a new key is listed', `${key.id} not in the list`, listing);
      expect(!('key' in listed), 'D3: listings show prefix and last4, never the value', 'a listed key has a key field', listing);
      const stored = { name: key.name, prefix: data.prefix, last4: data.last4, status: 'active', createdAt: data.createdAt, revokedAt: null };
      expectReadBack(listed, stored, 'D3/D15: the listing holds the new key with the name POST sent and what its creation answered', listing);
    },
  },
  {
    id: 'api-keys.revoke-answer',
    tags: ['api-keys'],
    description: 'DELETE /api-keys/:id answers 200 with the key, status revoked and revokedAt set',
    spec: 'D3, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const key = await createKey(ctx, 'revoke');
      const result = await ctx.client.apiKeys.revoke(key.id);
      expectStatus(result, 200, 'D3: revoke answers 200');
      const { data } = expectShape(result, envelope(ApiKey), 'D3: revoke answers the key');
      expect(data.status === 'revoked' && data.revokedAt !== null, 'D3: the answer shows the key revoked', `status ${data.status}`, result);
    },
  },
  {
    id: 'api-keys.unknown-id',
    tags: ['api-keys'],
    description: 'DELETE /api-keys/:id of an id that does not exist is 404 with the error envelope',
    spec: 'part 7 (404)',
    profile: 'spec',
    creates: false,
    run: async (ctx) =>
      void expectError(await ctx.client.request('DELETE', `/api-keys/${missingId(ctx, 'key')}`), 404, 'part 7: revoking an unknown key is 404'),
  },
  {
    id: 'api-keys.bad-body',
    tags: ['api-keys'],
    description: 'POST /api-keys without a name is 400 validation_error',
    spec: 'D6, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => expectErrorCode(await ctx.client.request('POST', '/api-keys', { body: {} }), 400, 'validation_error', 'D15: a key needs a name'),
  },
];
