/** Health (spec part 4): liveness and readiness. */
import { z } from '@hono/zod-openapi';

export const Health = z.object({ status: z.literal('ok'), uptimeSeconds: z.number() }).openapi('Health');
export const Ready = z.object({ status: z.literal('ready'), store: z.enum(['file', 'memory', 'postgres']) }).openapi('Ready');
