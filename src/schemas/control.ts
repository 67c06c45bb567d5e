/** The control plane's bodies and answers (D10, D11). */
import { z } from '@hono/zod-openapi';
import { parseDuration } from '../duration.js';
import type { ErrorCode } from '../errors.js';
import { EVENT_TYPES } from './words.js';
import { Duration, IsoTimestamp, idOf } from './common.js';

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
  type: z.enum(EVENT_TYPES, { error: `not a known event type; one of ${EVENT_TYPES.join(', ')}` }).optional(),
  tenant: z.string().max(100).optional(),
  limit: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(1000)).optional(),
});

/** Statuses a fault may answer, with the catalogue code its envelope carries; any other 5xx says internal_error. */
export const FAULT_CODES = {
  400: 'validation_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'store_unavailable',
} as const satisfies Record<number, ErrorCode>;

/** Longest delay a fault may add (real time): enough to trip any client's timeout. */
export const MAX_FAULT_DELAY_MS = 10 * 60_000;

/** POST /_emulator/faults: the next `count` requests matching method and path answer `status`, or wait `delay`, or both. */
export const FaultBody = z.object({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'an HTTP method such as GET or POST')
    .transform((method) => method.toUpperCase())
    .optional(),
  path: z
    .string()
    .min(1)
    .max(300)
    .regex(/^\/[\w\-./:{}*~]*$/, 'a path such as /users, /users/:id or /webhooks/*, relative to /v1'),
  status: z
    .number()
    .int()
    .refine((status) => status in FAULT_CODES || (status >= 500 && status <= 599), {
      message: `one of ${Object.keys(FAULT_CODES).join(', ')} or any 5xx`,
    })
    .optional(),
  delay: Duration.refine((text) => (parseDuration(text) ?? Infinity) <= MAX_FAULT_DELAY_MS, 'at most 10m').optional(),
  count: z.number().int().min(1).max(100_000),
});

export type FaultInput = z.output<typeof FaultBody>;

/** POST /_emulator/trigger: record one event of `type` with sample data (or `data`) for a tenant (default the first). */
export const TriggerBody = z.object({
  type: z.enum(EVENT_TYPES),
  tenantId: idOf('ten').optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export type TriggerInput = z.output<typeof TriggerBody>;
