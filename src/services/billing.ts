/**
 * Billing (spec part 4, D13) against the emulated payment provider: checkout and
 * portal sessions live at pages under /_provider/ that the emulator serves; completing a
 * checkout (or switching plans in the portal) changes the tenant's plan and emits
 * `billing.subscription.updated`. Usage is this calendar month's, on the emulator clock.
 */
import { ApiError, conflict } from '../errors.js';
import { ID_RANDOM_LENGTH, newId, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { BillingUsageView, CheckoutInput } from '../schemas/billing.js';
import type { CheckoutSessionRecord, PortalSessionRecord } from '../store/records.js';
import type { Plan } from '../schemas/words.js';
import { emitEvent } from './events.js';
import { getTenant, PLAN_LIMITS } from './tenant.js';
import { usageMeter, utcDate } from './usage.js';
import { expiryDetail } from './emulator-time.js';

/** The plans a tenant can be on, for the provider's pages to offer. */
export { PLANS, type Plan } from '../schemas/words.js';

/** Monthly list prices, in cents of USD. */
export const PLAN_PRICES: Record<Plan, number> = { free: 0, pro: 4_900, enterprise: 49_900 };
/** How long a checkout stays payable (emulator time), as at real providers. */
export const CHECKOUT_TTL_MS = 24 * 3_600_000;
/** How long a portal link works (emulator time). */
export const PORTAL_TTL_MS = 3_600_000;
/** The path the provider's pages are mounted at. */
export const PROVIDER_PATH = '/_provider';
/** Placeholder in successUrl replaced by the checkout id, as real providers offer. */
export const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

export function checkoutUrl(origin: string, id: string): string {
  return `${origin}${PROVIDER_PATH}/checkout/${id}`;
}

export function portalUrl(origin: string, id: string): string {
  return `${origin}${PROVIDER_PATH}/portal/${id}`;
}

export async function createCheckout(rt: Runtime, tenantId: string, input: CheckoutInput): Promise<CheckoutSessionRecord> {
  const tenant = getTenant(rt, tenantId);
  if (tenant.plan === input.plan) {
    throw conflict(`the tenant is already on the ${input.plan} plan`, [{ path: 'plan', message: `already ${input.plan}` }]);
  }
  const now = rt.clock.nowMs();
  const record: CheckoutSessionRecord = {
    id: `cs_test_${randomBase62(ID_RANDOM_LENGTH)}`,
    tenantId,
    plan: input.plan,
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    status: 'open',
    expiresAt: new Date(now + CHECKOUT_TTL_MS).toISOString(),
    completedAt: null,
    createdAt: new Date(now).toISOString(),
  };
  return rt.store.write(() => rt.store.insert('checkoutSessions', record));
}

export async function createPortal(rt: Runtime, tenantId: string, returnUrl: string): Promise<PortalSessionRecord> {
  const now = rt.clock.nowMs();
  const record: PortalSessionRecord = {
    id: newId('bps'),
    tenantId,
    returnUrl,
    expiresAt: new Date(now + PORTAL_TTL_MS).toISOString(),
    createdAt: new Date(now).toISOString(),
  };
  return rt.store.write(() => rt.store.insert('portalSessions', record));
}

/** A checkout as the provider's page shows it: with its tenant's name (null once the tenant is gone). */
export type ProviderCheckout = CheckoutSessionRecord & { tenantName: string | null };

/** A billing portal session as the provider's page shows it: with its tenant's name (null once the tenant is gone). */
export type ProviderPortal = PortalSessionRecord & { tenantName: string | null };

/** A checkout by id, or undefined. */
export function findCheckout(rt: Runtime, id: string): ProviderCheckout | undefined {
  const checkout = rt.store.get('checkoutSessions', id);
  return checkout && { ...checkout, tenantName: rt.store.get('tenants', checkout.tenantId)?.name ?? null };
}

/** A billing portal session by id, or undefined. */
export function findPortal(rt: Runtime, id: string): ProviderPortal | undefined {
  const portal = rt.store.get('portalSessions', id);
  return portal && { ...portal, tenantName: rt.store.get('tenants', portal.tenantId)?.name ?? null };
}

/** Why a checkout cannot be paid or canceled now, or null when it can. */
export function checkoutProblem(rt: Runtime, checkout: CheckoutSessionRecord): string | null {
  if (checkout.status === 'complete') return 'This checkout has already been paid.';
  if (checkout.status === 'canceled') return 'This checkout was canceled.';
  if (Date.parse(checkout.expiresAt) <= rt.clock.nowMs()) return 'This checkout has expired.';
  return null;
}

export function portalProblem(rt: Runtime, portal: PortalSessionRecord): string | null {
  return Date.parse(portal.expiresAt) <= rt.clock.nowMs() ? 'This billing portal link has expired.' : null;
}

/** 410 for a checkout or portal link that cannot be used; one past its expiry says where the emulator clock is. */
function goneError(rt: Runtime, problem: string, record: { id: string; expiresAt: string }): ApiError {
  const expired = problem.endsWith('has expired.');
  return new ApiError('gone', problem, expired ? [expiryDetail(rt, `Billing link ${record.id}`, record.expiresAt, 'ask for a new one')] : []);
}

/** What the provider's page says under a link it cannot show (410): the problem, and for an expired link the emulator's and the real time. */
export function goneText(rt: Runtime, problem: string, record: { id: string; expiresAt: string }): string[] {
  const error = goneError(rt, problem, record);
  return [error.message, ...(error.details ?? []).map((detail) => detail.message)];
}

/** Changes the tenant's plan and records the event; call inside `rt.store.write()`. */
function changePlan(rt: Runtime, tenantId: string, plan: Plan, source: Record<string, string>): void {
  const tenant = getTenant(rt, tenantId);
  if (tenant.plan === plan) return;
  rt.store.update('tenants', tenantId, { plan, updatedAt: rt.clock.iso() });
  emitEvent(rt, tenantId, 'billing.subscription.updated', { plan, previousPlan: tenant.plan, ...source, limits: PLAN_LIMITS[plan] });
}

/** Pays an open checkout: the plan changes at once. Answers where to send the payer. */
export async function completeCheckout(rt: Runtime, id: string): Promise<string> {
  return rt.store.write(() => {
    const checkout = rt.store.get('checkoutSessions', id);
    if (!checkout) throw new ApiError('not_found', 'no such checkout');
    const problem = checkoutProblem(rt, checkout);
    if (problem !== null) throw goneError(rt, problem, checkout);
    const now = rt.clock.iso();
    rt.store.update('checkoutSessions', id, { status: 'complete', completedAt: now });
    changePlan(rt, checkout.tenantId, checkout.plan, { checkoutId: id });
    return checkout.successUrl.split(SESSION_ID_PLACEHOLDER).join(id);
  });
}

/** Abandons an open checkout; answers the cancel URL. */
export async function cancelCheckout(rt: Runtime, id: string): Promise<string> {
  return rt.store.write(() => {
    const checkout = rt.store.get('checkoutSessions', id);
    if (!checkout) throw new ApiError('not_found', 'no such checkout');
    const problem = checkoutProblem(rt, checkout);
    if (problem !== null) throw goneError(rt, problem, checkout);
    rt.store.update('checkoutSessions', id, { status: 'canceled' });
    return checkout.cancelUrl;
  });
}

/** A plan switch made in the billing portal. */
export async function switchPlanInPortal(rt: Runtime, id: string, plan: Plan): Promise<void> {
  await rt.store.write(() => {
    const portal = rt.store.get('portalSessions', id);
    if (!portal) throw new ApiError('not_found', 'no such billing portal session');
    const problem = portalProblem(rt, portal);
    if (problem !== null) throw goneError(rt, problem, portal);
    changePlan(rt, portal.tenantId, plan, { portalSessionId: id });
  });
}

/**
 * This calendar month's usage (UTC, emulator clock) against the plan's limits: API calls,
 * monthly active users (distinct users with a sign-in this month), wallets (claimed by
 * their users, all time) and webhook deliveries created this month.
 */
export function billingUsage(rt: Runtime, tenantId: string): BillingUsageView {
  const tenant = getTenant(rt, tenantId);
  const nowMs = rt.clock.nowMs();
  const today = utcDate(nowMs);
  const monthStart = `${today.slice(0, 7)}-01`;
  const fromMs = Date.parse(`${monthStart}T00:00:00.000Z`);
  const inMonth = (iso: string): boolean => {
    const ms = Date.parse(iso);
    return ms >= fromMs && ms <= nowMs;
  };
  let apiCalls = 0;
  for (const calls of usageMeter(rt).callsByDay(tenantId, monthStart, today).values()) apiCalls += calls;
  const activeUsers = new Set<string>();
  for (const session of rt.store.ofTenant('sessions', tenantId)) if (inMonth(session.createdAt)) activeUsers.add(session.userId);
  const wallets = rt.store.ofTenant('wallets', tenantId).filter((wallet) => wallet.claimedAt !== null).length;
  const deliveries = rt.store.ofTenant('deliveries', tenantId).filter((delivery) => inMonth(delivery.createdAt)).length;
  return {
    plan: tenant.plan,
    price: { amount: PLAN_PRICES[tenant.plan], currency: 'usd', interval: 'month' },
    period: { from: new Date(fromMs).toISOString(), to: new Date(nowMs).toISOString() },
    usage: { apiCalls, monthlyActiveUsers: activeUsers.size, wallets, deliveries },
    limits: PLAN_LIMITS[tenant.plan],
  };
}
