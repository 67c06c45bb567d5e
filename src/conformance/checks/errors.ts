/** Bodies are JSON and failures use the error envelope (spec part 4, part 7; D6). */
import { expect, expectJsonContentType } from '../expect.js';
import { expectError, expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';

const CREATE_PATHS = [
  { area: 'apps', path: '/apps' },
  { area: 'users', path: '/users' },
  { area: 'api-keys', path: '/api-keys' },
  { area: 'webhooks', path: '/webhooks' },
] as const;

export const errorChecks: Check[] = [
  ...CREATE_PATHS.map(({ area, path }): Check => ({
    id: `errors.invalid-json.${area}`,
    tags: ['errors', area],
    description: `POST ${path} with a body that is not JSON is 400 with the error envelope`,
    spec: 'part 4 (bodies are JSON), part 7 (400)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('POST', path, { rawBody: '{"name": "conformance", ', headers: { 'content-type': 'application/json' } });
      expectError(result, 400, 'part 7: a body that is not JSON is a bad request (400)');
    },
  })),
  {
    id: 'errors.invalid-json-code',
    tags: ['errors'],
    description: 'a body that is not JSON is 400 invalid_json',
    spec: 'D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('POST', '/apps', { rawBody: '{oops', headers: { 'content-type': 'application/json' } });
      expectErrorCode(result, 400, 'invalid_json', 'D6: malformed JSON → invalid_json');
    },
  },
  {
    id: 'errors.unknown-route',
    tags: ['errors'],
    description: 'an unknown path under /v1 is 404 not_found with the error envelope',
    spec: 'D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => expectErrorCode(await ctx.client.request('GET', '/conformance-no-such-route'), 404, 'not_found', 'D6: unknown routes → 404 not_found'),
  },
  {
    id: 'errors.payload-too-large',
    tags: ['errors'],
    description: 'a body over 1 MiB is 413 payload_too_large',
    spec: 'D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('POST', '/apps', { body: { name: 'x', description: 'a'.repeat(1024 * 1024 + 16) } });
      expectErrorCode(result, 413, 'payload_too_large', 'D6: bodies over 1 MiB → 413 payload_too_large');
    },
  },
  {
    id: 'errors.validation-details',
    tags: ['errors', 'apps'],
    description: 'a validation error is 400 validation_error with one {path, message} per field in details',
    spec: 'D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('POST', '/apps', { body: { name: 42, allowedOrigins: 'nope' } });
      expectErrorCode(result, 400, 'validation_error', 'D6: a bad field → validation_error');
      const details = (result.body as { details: Array<{ path?: unknown; message?: unknown }> }).details;
      const paths = details.map((detail) => detail.path);
      expect(
        details.every((d) => typeof d.message === 'string'),
        'D6: each detail has a message',
        'a detail without a message string',
        result,
      );
      expect(paths.includes('name') && paths.includes('allowedOrigins'), 'D6: details name every bad field', `paths ${JSON.stringify(paths)}`, result);
    },
  },
  {
    id: 'errors.json-content-type',
    tags: ['errors'],
    description: 'answers, errors included, are application/json; charset=utf-8',
    spec: 'D2',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const result of [await ctx.client.request('GET', '/apps'), await ctx.client.request('GET', '/apps', { apiKey: null })]) {
        expectJsonContentType(result, 'D2: every API answer is JSON');
        const type = (result.headers.get('content-type') ?? '').toLowerCase().replace(/\s/g, '');
        expect(type === 'application/json;charset=utf-8', 'D2: application/json; charset=utf-8', `got "${type}"`, result);
      }
    },
  },
];
