/** The control plane's bodies and answers (DESIGN D10, D11). */
import { z } from '@hono/zod-openapi';
import { Duration, IsoTimestamp } from './common.js';

export const ClockState = z.object({ now: IsoTimestamp, speed: z.number() }).openapi('ClockState');

export const SetClockBody = z
  .object({
    now: z.string().datetime({ offset: true }).optional().openapi({ example: '2026-11-21T10:00:00.000Z' }),
    speed: z.number().positive().max(1_000_000_000).optional(),
  })
  .refine((body) => body.now !== undefined || body.speed !== undefined, 'give now, speed or both');

export const AdvanceClockBody = z.object({ by: Duration });

export const AdvanceResult = ClockState.extend({ fired: z.number().int() });

export const EventsQuery = z.object({
  type: z.string().max(100).optional(),
  tenant: z.string().max(100).optional(),
  limit: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
});
