/**
 * Tenant settings the emulator checks rely on (D3). A used tenant may hold any settings:
 * a guest session shorter than the MFA freshness, no WebAuthn origin at all. Where a check needs
 * a setting to hold a value, the run sets it for its own duration and puts back the value it
 * found at the end; it never depends on the value it found. The spec profile changes no setting
 * (the spec shows none).
 */
import type { z } from '@hono/zod-openapi';
import { envelope } from '../../schemas/common.js';
import { Tenant, type UpdateTenantInput } from '../../schemas/tenant.js';
import { expectShape, expectStatus } from '../expect.js';
import type { CheckContext } from '../types.js';
import { removal } from './support.js';

export type TenantSettings = z.infer<typeof Tenant>['settings'];
type SettingsPatch = NonNullable<UpdateTenantInput['settings']>;

/**
 * Session lifetimes for the run (D3's defaults): a session outlives the MFA freshness
 * and every step the checks of the clock lane take (under two hours in all, the longest a
 * billing portal link's hour), so a session one check made still serves the checks after them.
 */
export const RUN_SESSION_SETTINGS = { sessionTtl: '24h', guestTtl: '24h', mfaFreshness: '10m' } as const;

/** The tenant's settings now (GET /tenant, D15). */
export async function tenantSettings(ctx: CheckContext): Promise<TenantSettings> {
  return expectShape(await ctx.client.tenant.get(), envelope(Tenant), 'D3/D15: the tenant settings').data.settings;
}

/** The PATCH that puts back, from `found`, every field `patch` changes. */
function restoring(found: TenantSettings, patch: SettingsPatch): SettingsPatch {
  const back: SettingsPatch = {};
  if (patch.apiVersion !== undefined) back.apiVersion = found.apiVersion;
  if (patch.sessionTtl !== undefined) back.sessionTtl = found.sessionTtl;
  if (patch.guestTtl !== undefined) back.guestTtl = found.guestTtl;
  if (patch.mfaFreshness !== undefined) back.mfaFreshness = found.mfaFreshness;
  if (patch.webauthn?.origins !== undefined) back.webauthn = { origins: found.webauthn.origins };
  return back;
}

/**
 * Sets, once per run and `key`, what `choose` asks of the settings it is shown (only what
 * differs; an empty patch sends nothing), and defers putting back what was found.
 */
export function settingsForRun(ctx: CheckContext, key: string, choose: (found: TenantSettings) => SettingsPatch): Promise<void> {
  return ctx.shared(`tenant-settings-${key}`, async () => {
    const found = await tenantSettings(ctx);
    const patch = choose(found);
    if (Object.keys(patch).length === 0) return;
    const back = restoring(found, patch);
    const result = await ctx.client.tenant.update({ settings: patch });
    expectStatus(result, 200, `D3: PATCH /tenant sets ${Object.keys(patch).join(', ')} for the run`);
    ctx.note(`tenant settings for the run: ${JSON.stringify(patch)} (put back at the end)`);
    ctx.defer({
      description: `tenant settings ${JSON.stringify(back)} put back`,
      stage: 'tenant',
      run: () => removal(ctx.client.tenant.update({ settings: back })),
    });
  });
}

/** Sessions that outlive what the checks do with them, whatever TTLs the tenant has (emulator profile). */
export async function sessionSettingsForRun(ctx: CheckContext): Promise<void> {
  if (ctx.profile !== 'emulator') return;
  await settingsForRun(ctx, 'sessions', (found) => {
    const patch: SettingsPatch = {};
    for (const name of ['sessionTtl', 'guestTtl', 'mfaFreshness'] as const) {
      if (found[name] !== RUN_SESSION_SETTINGS[name]) patch[name] = RUN_SESSION_SETTINGS[name];
    }
    return patch;
  });
}
