/**
 * The control plane's bodies and queries for running tests against svc (issue 35): tenants
 * made per test worker, the request journal, and waiting for what a test expects.
 */
import { z } from '@hono/zod-openapi';
import { PLANS } from './words.js';

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

/** One request the emulator answered, as `GET /_emulator/requests` lists it (bodies with secrets redacted). */
export interface JournalEntry {
  /** Increases by one per request this process answered; `after` filters on it. */
  seq: number;
  /** Real (wall-clock) time the request arrived, ISO. */
  time: string;
  /** The emulator clock when it arrived, ISO (D10). */
  emulatedTime: string;
  tenantId: string | null;
  method: string;
  path: string;
  query: string;
  status: number;
  requestId: string;
  durationMs: number;
  /** The JSON body as sent, secrets redacted; null when there was none. */
  requestBody: unknown;
  responseBody: unknown;
}

/** An event of the log, as it is stored and as `GET /_emulator/events` lists it (D8). */
export interface RecordedEvent {
  id: string;
  tenantId: string;
  type: string;
  created_at: string;
  api_version: string;
  data: Record<string, unknown>;
}
