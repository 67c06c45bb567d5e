/** The OpenAPI document itself, as GET /openapi.json answers it (described loosely: it is OpenAPI 3.1). */
import { z } from '@hono/zod-openapi';

export const OpenApiDocument = z
  .object({
    openapi: z
      .string()
      .regex(/^3\.1\.\d+$/)
      .openapi({ example: '3.1.0' }),
    info: z.object({ title: z.string(), version: z.string() }).catchall(z.unknown()),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    webhooks: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    components: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown())
  .openapi('OpenApiDocument', { description: 'An OpenAPI 3.1 document: see https://spec.openapis.org/oas/v3.1.0' });
