/**
 * The control plane's bodies, queries and answers (D10, D11): the one declaration that
 * operations/control.ts, its routes, its OpenAPI document and the typed client share.
 */
import { z } from '@hono/zod-openapi';
import { parseDuration } from '../duration.js';
import type { ErrorCode } from '../errors.js';
import { EVENT_TYPES } from './words.js';
import { Duration, IsoTimestamp, idOf } from './common.js';
import { Delivery } from './webhooks.js';

/**
 * The header svc's own clients (the typed client, hence the CLI and svc/testing) send with
 * every state-changing control-plane request, as `x-svc-control: 1`. No HTML form can send a
 * header of its own, so a guard may take it (or a JSON body) as proof that a page did not.
 */
export const CONTROL_REQUEST_HEADER = 'x-svc-control';

export const ClockState = z
  .object({
    now: IsoTimestamp.openapi({ description: 'The emulated time' }),
    speed: z.number().openapi({ description: 'Emulated seconds per real second' }),
  })
  .openapi('ClockState');

/** GET /_emulator/health: the process answers, with its store, its clock and what waits on it. */
export const EmulatorHealth = z
  .object({
    status: z.literal('ok'),
    store: z.enum(['memory', 'file', 'postgres']),
    dataDir: z.string().nullable().openapi({ description: 'The data dir of the file store; null for the others' }),
    clock: ClockState,
    scheduledDeliveries: z.number().int().min(0).openapi({ description: 'Delivery attempts waiting on the emulator clock' }),
  })
  .openapi('EmulatorHealth');

export const SetClockBody = z
  .object({
    now: z.string().datetime({ offset: true }).optional().openapi({ example: '2026-11-21T10:00:00.000Z' }),
    speed: z.number().positive().max(1_000_000_000).optional(),
  })
  .refine((body) => body.now !== undefined || body.speed !== undefined, 'give now, speed or both');

export const AdvanceClockBody = z.object({ by: Duration });

export const AdvanceResult = ClockState.extend({
  fired: z.number().int().min(0).openapi({ description: 'Delivery attempts that came due on the way and were made' }),
}).openapi('ClockAdvanced');

/** An event of the log, as it is stored and as `GET /_emulator/events` lists it (D8). */
export const RecordedEvent = z
  .object({
    id: idOf('evt'),
    tenantId: idOf('ten'),
    type: z.string(),
    created_at: IsoTimestamp,
    api_version: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('RecordedEvent');
export type RecordedEvent = z.infer<typeof RecordedEvent>;

export const EventsQuery = z.object({
  type: z.enum(EVENT_TYPES, { error: `not a known event type; one of ${EVENT_TYPES.join(', ')}` }).optional(),
  tenant: z.string().max(100).optional(),
  limit: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
});

/**
 * A delivery as the control plane shows it: with its tenant, since it spans tenants, and
 * `webhookDeleted` when its webhook is gone (kept for its history, it cannot be sent).
 */
export const ControlDelivery = Delivery.extend({
  tenantId: idOf('ten'),
  webhookDeleted: z.boolean(),
}).openapi('ControlDelivery');
export type ControlDelivery = z.infer<typeof ControlDelivery>;

/** A tenant as the control plane reports what it seeded. */
export const SeededTenant = z.object({ id: idOf('ten'), name: z.string(), plan: z.string() }).openapi('SeededTenant');

/** What POST /_emulator/reset and /_emulator/seed answer: the tenants seeded. */
export const Seeded = z.object({ tenants: z.array(SeededTenant) }).openapi('Seeded');

/** How many things a DELETE cleared. */
export const Cleared = z.object({ cleared: z.number().int().min(0) }).openapi('Cleared');

/** Statuses a fault may answer, with the catalogue code its envelope carries; any other 5xx says internal_error. */
export const FAULT_CODES = {
  400: 'validation_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found',
  // A timeout to rehearse at once, without waiting out a client's: a delay does that (`delay`).
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'store_unavailable',
} as const satisfies Record<number, ErrorCode>;

/** Longest delay a fault may add (real time): enough to trip any client's timeout. */
export const MAX_FAULT_DELAY_MS = 10 * 60_000;

/**
 * POST /_emulator/faults: the next `count` requests matching method and path answer `status`, or
 * wait `delay`, or both; with `tenant`, only the requests that tenant's API key authenticates.
 */
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
  tenant: idOf('ten').optional().openapi({
    description:
      "Only requests that this tenant's API key authenticates meet the fault; a request with no key or another tenant's never does. Without it, every request does",
  }),
});

export type FaultInput = z.output<typeof FaultBody>;

/** A fault as the control plane answers it. */
export const Fault = z
  .object({
    id: idOf('flt'),
    method: z.string().nullable().openapi({ description: 'Upper-case method, or null for any' }),
    path: z.string().openapi({ description: 'The path as given, relative to /v1' }),
    status: z.number().int().nullable(),
    delay: z.string().nullable(),
    count: z.number().int(),
    remaining: z.number().int().min(0).openapi({ description: 'Matching requests it will still hit' }),
    tenant: idOf('ten').nullable().openapi({ description: "The tenant whose requests alone meet it (by their API key), or null for every caller's" }),
    createdAt: IsoTimestamp,
  })
  .openapi('Fault');

/** POST /_emulator/trigger: record one event of `type` with sample data (or `data`) for a tenant (default the first). */
export const TriggerBody = z.object({
  type: z.enum(EVENT_TYPES),
  tenantId: idOf('ten').optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export type TriggerInput = z.output<typeof TriggerBody>;

/** What POST /_emulator/trigger answers: the event and its deliveries after their first attempt. */
export const Triggered = z.object({ event: RecordedEvent, deliveries: z.array(Delivery) }).openapi('Triggered');
