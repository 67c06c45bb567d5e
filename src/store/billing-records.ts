/**
 * The records of billing (D13, D16): checkouts and portal sessions at the emulated payment
 * provider, and the API calls a tenant makes each day.
 */
import type { Plan } from '../schemas/words.js';

/** A checkout at the emulated payment provider (D13): completing it changes the tenant's plan. */
export interface CheckoutSessionRecord {
  id: string;
  tenantId: string;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'canceled';
  expiresAt: string;
  completedAt: string | null;
  createdAt: string;
}

/** A billing portal session at the emulated payment provider (D13). */
export interface PortalSessionRecord {
  id: string;
  tenantId: string;
  returnUrl: string;
  expiresAt: string;
  createdAt: string;
}

/** API calls of one tenant on one UTC day of the emulator clock; id `<tenantId>:<YYYY-MM-DD>`. */
export interface UsageRecord {
  id: string;
  tenantId: string;
  date: string;
  apiCalls: number;
}
