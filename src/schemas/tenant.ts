/** The tenant (spec part 4; D3, D15). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { PLANS } from './words.js';
import { Duration, IsoTimestamp, idOf } from './common.js';

export const ApiVersionDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'a real calendar date')
  .openapi({ example: '2026-11-01' });

const RpId = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, 'a host name');
const Origin = z
  .string()
  .url()
  .regex(/^https?:\/\/[^/]+$/, 'an origin: scheme, host and optional port');

export const PlanLimits = z
  .object({
    requestsPerSecond: z.number(),
    monthlyActiveUsers: z.number(),
    wallets: z.number(),
    deliveries: z.number(),
  })
  .openapi('PlanLimits');

export const TenantSettings = z
  .object({
    apiVersion: ApiVersionDate,
    sessionTtl: Duration,
    guestTtl: Duration,
    mfaFreshness: Duration,
    webauthn: z.object({ rpId: z.string(), rpName: z.string(), origins: z.array(z.string()) }),
    telegram: z.object({
      botUsername: z.string(),
      botTokenSet: z.boolean().openapi({ description: 'Whether a bot token is configured; the token itself is write-only' }),
    }),
  })
  .openapi('TenantSettings');

export const Tenant = z
  .object({
    id: idOf('ten'),
    name: z.string(),
    plan: z.enum(PLANS),
    settings: TenantSettings,
    limits: PlanLimits,
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi('Tenant');

export const UpdateTenantBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    settings: z
      .object({
        apiVersion: ApiVersionDate.optional(),
        sessionTtl: Duration.optional(),
        guestTtl: Duration.optional(),
        mfaFreshness: Duration.optional(),
        webauthn: z.object({ rpId: RpId.optional(), rpName: z.string().min(1).max(100).optional(), origins: z.array(Origin).max(50).optional() }).optional(),
        telegram: z
          .object({
            botUsername: z
              .string()
              .regex(/^[A-Za-z0-9_]{3,64}$/, 'a Telegram bot username')
              .optional(),
            botToken: secret(z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'a Telegram bot token such as 123456:ABC…')).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .openapi('UpdateTenant');

export type TenantView = z.infer<typeof Tenant>;
export type UpdateTenantInput = z.infer<typeof UpdateTenantBody>;
