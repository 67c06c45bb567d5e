/** Tenants, their settings and plan limits (D3, D16). */
import { notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { TenantView, UpdateTenantInput } from '../schemas/tenant.js';
import type { TenantRecord, TenantSettings } from '../store/records.js';
import type { Plan } from '../schemas/words.js';

export const DEFAULT_API_VERSION = '2026-11-01';

/** What each plan allows (D16 for the request rate). */
export const PLAN_LIMITS: Record<Plan, TenantView['limits']> = {
  free: { requestsPerSecond: 20, monthlyActiveUsers: 1_000, wallets: 1_000, deliveries: 10_000 },
  pro: { requestsPerSecond: 200, monthlyActiveUsers: 50_000, wallets: 50_000, deliveries: 1_000_000 },
  enterprise: { requestsPerSecond: 2_000, monthlyActiveUsers: 1_000_000, wallets: 1_000_000, deliveries: 50_000_000 },
};

export function defaultSettings(): TenantSettings {
  return {
    apiVersion: DEFAULT_API_VERSION,
    sessionTtl: '24h',
    guestTtl: '24h',
    mfaFreshness: '10m',
    webauthn: { rpId: 'localhost', rpName: 'svc emulator', origins: ['http://localhost:4010'] },
    telegram: { botUsername: 'svc_dev_bot', botToken: null },
  };
}

export function tenantView(tenant: TenantRecord): TenantView {
  const { telegram, ...settings } = tenant.settings;
  return {
    id: tenant.id,
    name: tenant.name,
    plan: tenant.plan,
    settings: { ...settings, telegram: { botUsername: telegram.botUsername, botTokenSet: telegram.botToken !== null } },
    limits: PLAN_LIMITS[tenant.plan],
    createdAt: tenant.createdAt,
    updatedAt: tenant.updatedAt,
  };
}

export function getTenant(rt: Runtime, tenantId: string): TenantRecord {
  const tenant = rt.store.get('tenants', tenantId);
  if (!tenant) throw notFound('tenant', tenantId);
  return tenant;
}

export async function updateTenant(rt: Runtime, tenantId: string, input: UpdateTenantInput): Promise<TenantRecord> {
  const tenant = getTenant(rt, tenantId);
  const patch = input.settings ?? {};
  const current = tenant.settings;
  const settings: TenantSettings = {
    apiVersion: patch.apiVersion ?? current.apiVersion,
    sessionTtl: patch.sessionTtl ?? current.sessionTtl,
    guestTtl: patch.guestTtl ?? current.guestTtl,
    mfaFreshness: patch.mfaFreshness ?? current.mfaFreshness,
    webauthn: {
      rpId: patch.webauthn?.rpId ?? current.webauthn.rpId,
      rpName: patch.webauthn?.rpName ?? current.webauthn.rpName,
      origins: patch.webauthn?.origins ?? current.webauthn.origins,
    },
    telegram: {
      botUsername: patch.telegram?.botUsername ?? current.telegram.botUsername,
      botToken: patch.telegram?.botToken ?? current.telegram.botToken,
    },
  };
  return rt.store.write(() =>
    rt.store.update('tenants', tenantId, {
      name: input.name ?? tenant.name,
      settings,
      updatedAt: rt.clock.iso(),
    }),
  );
}
