/** API keys (spec part 4, part 5; D3, D15). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { IsoTimestamp, idOf } from './common.js';

export const API_KEY_PATTERN = /^sk_test_[0-9A-Za-z]{32}$/;

export const CreateApiKeyBody = z.object({ name: z.string().trim().min(1).max(100).openapi({ example: 'ci' }) }).openapi('CreateApiKey');

export const ApiKey = z
  .object({
    id: idOf('key'),
    name: z.string(),
    prefix: z.string().openapi({ example: 'sk_test_Ab' }),
    last4: z.string().length(4),
    status: z.enum(['active', 'revoked']),
    createdAt: IsoTimestamp,
    revokedAt: IsoTimestamp.nullable(),
  })
  .openapi('ApiKey');

export const CreatedApiKey = ApiKey.extend({
  key: secret(z.string().regex(API_KEY_PATTERN)).openapi({ description: 'The key value; shown only in this answer' }),
}).openapi('CreatedApiKey');

export type ApiKeyView = z.infer<typeof ApiKey>;
