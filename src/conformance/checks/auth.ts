/**
 * The x-api-key rule (spec part 5.1–5.3, D3): a missing or invalid key is 401 with
 * the error envelope on every endpoint of the spec; a revoked key is 401; the emulator's
 * codes and exemptions.
 */
import { randomBytes } from 'node:crypto';
import { SPEC_ENDPOINTS, type SpecEndpoint } from '../endpoints.js';
import { expect, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { createKey, eventually } from './support.js';

/** A key of the emulator's form that no deployment issued. */
export function bogusKey(): string {
  return `sk_test_${randomBytes(16).toString('hex')}`;
}

function send(ctx: CheckContext, endpoint: SpecEndpoint, apiKey: string | null) {
  const hasBody = endpoint.method === 'POST' || endpoint.method === 'PATCH';
  return ctx.client.request(endpoint.method, endpoint.path, { apiKey, ...(hasBody ? { body: {} } : {}) });
}

const perEndpoint: Check[] = SPEC_ENDPOINTS.flatMap((endpoint): Check[] => [
  {
    id: `auth.missing-key.${endpoint.area}.${endpoint.op}`,
    tags: ['auth', endpoint.area],
    description: `${endpoint.method} ${endpoint.path.split('?')[0]} without x-api-key is 401 with the error envelope`,
    spec: 'part 5.1, 5.3, part 7',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectError(await send(ctx, endpoint, null), 401, 'part 5.3: a missing API key yields 401'),
  },
  {
    id: `auth.invalid-key.${endpoint.area}.${endpoint.op}`,
    tags: ['auth', endpoint.area],
    description: `${endpoint.method} ${endpoint.path.split('?')[0]} with an unknown x-api-key is 401 with the error envelope`,
    spec: 'part 5.3, part 7',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectError(await send(ctx, endpoint, bogusKey()), 401, 'part 5.3: an invalid API key yields 401'),
  },
]);

export const authChecks: Check[] = [
  ...perEndpoint,
  {
    id: 'auth.valid-key',
    tags: ['auth', 'tenant'],
    description: 'the given key is accepted: GET /tenant answers 200 with the success envelope',
    spec: 'part 5.1, part 4 (Tenant)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectSuccess(await ctx.client.request('GET', '/tenant'), 200, 'part 5.1: a valid API key is accepted'),
  },
  {
    id: 'auth.header-case',
    tags: ['auth'],
    description: 'the key header is matched case-insensitively (X-API-KEY works as x-api-key)',
    spec: 'part 5.1 (HTTP header names are case-insensitive)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', '/tenant', { apiKey: null, headers: { 'X-API-KEY': ctx.apiKey } });
      expectStatus(result, 200, 'part 5.1: the x-api-key header, in any letter case, is accepted');
    },
  },
  {
    id: 'auth.revoked-key',
    tags: ['auth', 'api-keys'],
    description: 'a key revoked with DELETE /api-keys/:id is answered 401 with the error envelope',
    spec: 'part 5.2, 5.3',
    profile: 'spec',
    creates: true,
    readsBack: ['revokeApiKey'],
    run: async (ctx) => {
      const key = await createKey(ctx, 'revoked');
      const revoke = await ctx.client.request('DELETE', `/api-keys/${key.id}`);
      expectStatus(revoke, [200, 204], 'part 5.2: DELETE /api-keys/:id revokes the key');
      // A deployment may take a moment to spread a revocation; the emulator check below wants it at once.
      const after = await eventually(5_000, async () => {
        const probe = await ctx.client.request('GET', '/tenant', { apiKey: key.value });
        return { done: probe.status === 401, value: probe };
      });
      expectError(after, 401, 'part 5.2/5.3: a revoked API key yields 401');
    },
  },
  {
    id: 'auth.revoked-key-at-once',
    tags: ['auth', 'api-keys'],
    description: 'a revoked key is refused from the very next request with code invalid_api_key',
    spec: 'D3',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const key = await createKey(ctx, 'revoked-at-once');
      expectStatus(await ctx.client.request('DELETE', `/api-keys/${key.id}`), 200, 'D3: DELETE /api-keys/:id answers 200');
      expectErrorCode(
        await ctx.client.request('GET', '/apps', { apiKey: key.value }),
        401,
        'invalid_api_key',
        'D3: a revoked key gets 401 invalid_api_key at once',
      );
    },
  },
  {
    id: 'auth.codes',
    tags: ['auth'],
    description: 'no key is 401 missing_api_key; an unknown key is 401 invalid_api_key',
    spec: 'D3, D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      expectErrorCode(await ctx.client.request('GET', '/users', { apiKey: null }), 401, 'missing_api_key', 'D3: no key → missing_api_key');
      expectErrorCode(await ctx.client.request('GET', '/users', { apiKey: bogusKey() }), 401, 'invalid_api_key', 'D3: unknown key → invalid_api_key');
      expectErrorCode(await ctx.client.request('GET', '/users', { apiKey: '' }), 401, 'missing_api_key', 'D3: an empty key counts as none');
    },
  },
  ...(['/healthz', '/readyz', '/openapi.json'] as const).map((path): Check => ({
    id: `auth.exempt.${path.slice(1).replace('.json', '')}`,
    tags: ['auth', path === '/openapi.json' ? 'openapi' : 'health'],
    description: `GET /v1${path} answers 200 without a key`,
    spec: 'D3',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', path, { apiKey: null });
      expectStatus(result, 200, `D3: ${path} needs no API key`);
      if (path !== '/openapi.json') return;
      const doc = result.body as { openapi?: unknown; paths?: unknown } | undefined;
      expect(
        typeof doc?.openapi === 'string' && typeof doc.paths === 'object',
        'D3: /v1/openapi.json is an OpenAPI document',
        'no openapi/paths fields',
        result,
      );
    },
  })),
];
