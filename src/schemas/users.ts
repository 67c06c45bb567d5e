/** Users (spec part 2, part 4; fields per D7, D15). */
import { z } from '@hono/zod-openapi';
import { TRUST_LEVELS } from './words.js';
import { IsoTimestamp, PageQuery, idOf } from './common.js';

export const TrustLevel = z.enum(TRUST_LEVELS).openapi('TrustLevel');

/** Canton party id: `<hint>::1220<64 hex>` (D13). */
export const PartyId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}::1220[0-9a-f]{64}$/, 'a party id <hint>::1220<64 hex>')
  .openapi({ example: 'alice::1220' + 'ab'.repeat(32) });

export const Email = z.string().trim().max(254).email().openapi({ example: 'alice@example.com' });

export const CreateUserBody = z
  .object({
    email: Email,
    name: z.string().trim().min(1).max(200).optional(),
    trustLevel: z.enum(['basic', 'verified', 'trusted']).optional().openapi({ description: 'Defaults to basic' }),
  })
  .openapi('CreateUser');

export const User = z
  .object({
    id: idOf('usr'),
    email: z.string().nullable(),
    name: z.string().nullable(),
    trustLevel: TrustLevel,
    partyId: PartyId,
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi('User');

export const UserListQuery = PageQuery.extend({
  trust_level: TrustLevel.optional().openapi({ param: { name: 'trust_level', in: 'query' } }),
  search: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'search', in: 'query' }, description: 'Case-insensitive substring of email or name' }),
});

export type CreateUserInput = z.infer<typeof CreateUserBody>;
export type UserView = z.infer<typeof User>;
