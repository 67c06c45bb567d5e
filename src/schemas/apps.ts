/** Apps (spec part 4; fields per D15). */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp, PageQuery, idOf } from './common.js';

const Origin = z
  .string()
  .url()
  .regex(/^https?:\/\/[^/]+$/, 'an origin: scheme, host and optional port, no path')
  .openapi({ example: 'http://localhost:3000' });

export const CreateAppBody = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: 'My dApp' }),
    description: z.string().max(1000).nullable().optional(),
    allowedOrigins: z.array(Origin).max(50).optional(),
  })
  .openapi('CreateApp');

export const UpdateAppBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).nullable().optional(),
    allowedOrigins: z.array(Origin).max(50).optional(),
  })
  .openapi('UpdateApp');

export const App = z
  .object({
    id: idOf('app'),
    name: z.string(),
    description: z.string().nullable(),
    allowedOrigins: z.array(z.string()),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi('App');

export const AppListQuery = PageQuery.extend({
  search: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'search', in: 'query' }, description: 'Case-insensitive substring of the name' }),
});

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('Deleted');

export type CreateAppInput = z.infer<typeof CreateAppBody>;
export type UpdateAppInput = z.infer<typeof UpdateAppBody>;
export type AppView = z.infer<typeof App>;
