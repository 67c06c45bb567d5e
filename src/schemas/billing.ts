/** Billing (spec part 4; D13, D15): checkout and portal sessions, and usage. */
import { z } from '@hono/zod-openapi';
import { PLANS } from './words.js';
import { IsoTimestamp, idOf } from './common.js';
import { PlanLimits } from './tenant.js';

/** Where the provider sends the payer back: an absolute http(s) URL. */
const ReturnUrl = z
  .string()
  .max(2048)
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'an absolute http or https URL')
  .openapi({ example: 'https://app.example.com/billing/done' });

export const CheckoutBody = z
  .object({
    plan: z.enum(PLANS),
    successUrl: ReturnUrl.openapi({ description: `Where to go once paid; {CHECKOUT_SESSION_ID} in it is replaced by the checkout's id` }),
    cancelUrl: ReturnUrl,
  })
  .openapi('CreateCheckout');

export const PortalBody = z.object({ returnUrl: ReturnUrl }).openapi('CreatePortal');

export const CheckoutSession = z
  .object({
    id: z
      .string()
      .regex(/^cs_test_[0-9A-Za-z]+$/)
      .openapi({ example: 'cs_test_a1B2c3D4e5F6g7H8i9J0' }),
    url: z.string().openapi({ description: 'The payment page at the (emulated) provider' }),
    plan: z.enum(PLANS),
    status: z.enum(['open', 'complete', 'canceled']),
    expiresAt: IsoTimestamp,
  })
  .openapi('CheckoutSession');

export const PortalSession = z.object({ id: idOf('bps'), url: z.string(), expiresAt: IsoTimestamp }).openapi('PortalSession');

export const BillingUsage = z
  .object({
    plan: z.enum(PLANS),
    price: z.object({ amount: z.number().int().openapi({ description: 'cents' }), currency: z.literal('usd'), interval: z.literal('month') }),
    period: z.object({ from: IsoTimestamp, to: IsoTimestamp }).openapi({ description: 'This calendar month (UTC, emulator clock) so far' }),
    usage: z.object({
      apiCalls: z.number().int(),
      monthlyActiveUsers: z.number().int(),
      wallets: z.number().int().openapi({ description: 'Wallets claimed by their users' }),
      deliveries: z.number().int(),
    }),
    limits: PlanLimits,
  })
  .openapi('BillingUsage');

export type CheckoutInput = z.infer<typeof CheckoutBody>;
export type BillingUsageView = z.infer<typeof BillingUsage>;
