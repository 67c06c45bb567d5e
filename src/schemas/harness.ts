/**
 * The control plane's bodies, queries and answers for running tests against svc: tenants
 * made per test worker, the request journal, every delivery, redelivery and the store as a
 * fixture (operations/control-harness.ts).
 */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp, idOf } from './common.js';
import { ControlDelivery, RecordedEvent } from './control.js';
import { Fixture } from './fixture.js';
import { DeliveryStatus } from './webhooks.js';
import { PLANS } from './words.js';

export { RecordedEvent };

const Count = (max: number) => z.string().regex(/^\d+$/, 'a whole number').transform(Number).pipe(z.number().int().min(1).max(max));

/**
 * POST /_emulator/tenants: a throwaway tenant with a fresh API key. `template` names a tenant
 * of the emulator's fixture (by id or name) whose settings, apps and users it copies, the
 * fixture's first tenant when left out; `null` makes an empty tenant. `plan` overrides the
 * template's plan.
 */
export const CreateTenantBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  plan: z.enum(PLANS).optional(),
  template: z.string().trim().min(1).max(100).nullable().optional(),
});
export type CreateTenantInput = z.output<typeof CreateTenantBody>;

/** POST /_emulator/tenants/:id/reset: which fixture tenant to seed it from again (default: the one it was made from). */
export const ResetTenantBody = z.object({
  template: z.string().trim().min(1).max(100).nullable().optional(),
});

/** GET /_emulator/requests: filters of the request journal (snake_case, as every query, D2). */
export const RequestsQuery = z.object({
  tenant: z.string().max(100).optional(),
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'an HTTP method such as GET or POST')
    .transform((method) => method.toUpperCase())
    .optional(),
  /** A path as requested (`/v1/users`), or a prefix ending in `*` (`/v1/users/*`). */
  path: z.string().min(1).max(300).startsWith('/', 'a path such as /v1/users or /v1/users/*').optional(),
  status: z
    .string()
    .regex(/^[1-5](\d\d|xx)$/, 'a status such as 201, or a class such as 4xx')
    .optional(),
  request_id: z.string().max(128).optional(),
  /** Only entries after this sequence number (what `svc requests --tail` polls with). */
  after: z.string().regex(/^\d+$/, 'a sequence number').transform(Number).optional(),
  limit: Count(10_000).optional(),
});
export type RequestsFilter = z.output<typeof RequestsQuery>;

/** POST /_emulator/redeliver: one event by id, or every event since a time (ISO, or a duration back from now such as 10m). */
export const RedeliverBody = z
  .object({
    eventId: z.string().min(1).max(100).optional(),
    since: z
      .string()
      .refine((text) => /^\d+(\.\d+)?(ms|s|m|h|d)$/.test(text) || (/^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text))), {
        message: 'an ISO time such as 2026-11-21T10:00:00Z, or a duration back from now such as 10m',
      })
      .optional(),
    tenant: z.string().max(100).optional(),
  })
  .refine((body) => body.eventId !== undefined || body.since !== undefined, { message: 'give eventId or since', path: ['eventId'] });

/** GET /_emulator/deliveries: every delivery, of one tenant, event type, event or status. */
export const DeliveriesQuery = z.object({
  tenant: z.string().max(100).optional(),
  event_type: z.string().max(100).optional(),
  event_id: z.string().max(100).optional(),
  status: DeliveryStatus.optional(),
});

/** One tenant, or every tenant when left out (GET /_emulator/export, DELETE /_emulator/requests). */
export const TenantQuery = z.object({ tenant: z.string().max(100).optional() });

const TenantOf = z.object({ id: idOf('ten'), name: z.string(), plan: z.string() });

/** A tenant of GET /_emulator/tenants, with how much it holds. */
export const TenantSummary = TenantOf.extend({
  users: z.number().int().min(0),
  apps: z.number().int().min(0),
  webhooks: z.number().int().min(0),
  createdAt: IsoTimestamp,
}).openapi('TenantSummary');

/** POST /_emulator/tenants: the tenant, its key (shown once, D3) and the fixture tenant it was copied from. */
export const TestTenant = z
  .object({
    tenant: TenantOf,
    apiKey: z.string().openapi({ description: "The new key's value: shown once, as POST /v1/api-keys shows it" }),
    template: z.string().nullable().openapi({ description: 'The fixture tenant it was copied from; null when made empty' }),
  })
  .openapi('TestTenant');
export type TestTenant = z.infer<typeof TestTenant>;

export const TenantReset = z.object({ tenant: TenantOf, removed: z.number().int().min(0) }).openapi('TenantReset');

export const TenantRemoved = z.object({ id: z.string(), deleted: z.literal(true), removed: z.number().int().min(0) }).openapi('TenantRemoved');

/** One request the emulator answered, as `GET /_emulator/requests` lists it (bodies with secrets redacted). */
export const JournalEntry = z
  .object({
    seq: z.number().int().openapi({ description: 'Increases by one per request this process answered; `after` filters on it' }),
    time: z.string().openapi({ description: 'Real (wall-clock) time the request arrived, ISO' }),
    emulatedTime: z.string().openapi({ description: 'The emulator clock when it arrived, ISO (D10)' }),
    tenantId: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    query: z.string(),
    status: z.number().int(),
    requestId: z.string(),
    durationMs: z.number(),
    requestBody: z.unknown().openapi({ description: 'The JSON body as sent, secrets redacted; null when there was none' }),
    responseBody: z.unknown(),
  })
  .openapi('JournalEntry');
export type JournalEntry = z.infer<typeof JournalEntry>;

/** POST /_emulator/redeliver: how many events, the deliveries sent again and those left alone (with why). */
export const Redelivered = z
  .object({
    events: z.number().int().min(0),
    redelivered: z.array(ControlDelivery),
    skipped: z.array(z.object({ id: z.string(), eventId: z.string(), status: z.string(), reason: z.string() })),
  })
  .openapi('Redelivered');

/** GET /_emulator/export: the store, or one tenant, as a fixture that `svc serve --seed` and `svc seed` take back. */
export const Exported = z
  .object({
    fixture: Fixture,
    replacedKeys: z
      .array(z.object({ tenantId: z.string(), tenantName: z.string(), key: z.string() }))
      .openapi({ description: 'Tenants whose keys could not be written out, with the new key the fixture gives them instead' }),
    leftOut: z.record(z.string(), z.number().int()).openapi({ description: 'Records of each collection the fixture format has no place for' }),
  })
  .openapi('Exported');
