/**
 * `--own-tenants` (docs/conformance.md#own-tenants): on a target with svc's control plane the run
 * works in two tenants of its own, made through POST /_emulator/tenants (each a copy of the
 * emulator fixture's first tenant, with a fresh key) and removed with everything they hold at the
 * end of the run, after failures and Ctrl-C too. The user's tenants, their users, webhooks, keys,
 * settings, events and journal get nothing. What is not a tenant's stays shared: the emulator
 * clock, which the run moves, and the rate of a process the run keeps busy.
 */
import { createClient, type Client } from '../client/index.js';
import type { CleanupResult } from './cleanup.js';
import type { Target } from './types.js';

/** The run's tenants: the target with their keys, and their removal. */
export interface OwnTenants {
  /** The target, with the first tenant's key as the run's key and the second's as the second key. */
  target: Target;
  /** The tenants' ids, first the run's own, then the second. */
  ids: string[];
  /** Removes both tenants with everything in them; a removal that fails is reported, never thrown. */
  remove(): Promise<CleanupResult[]>;
}

/** Thrown when the tenants cannot be made (no control plane, or it refuses): a configuration problem of the run. */
export class OwnTenantsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnTenantsError';
  }
}

function controlOf(target: Target): Client {
  return createClient({ baseUrl: target.baseUrl, ...(target.fetch ? { fetch: target.fetch } : {}), timeoutMs: target.timeoutMs });
}

async function removeTenant(control: Client, id: string): Promise<CleanupResult> {
  const description = `tenant ${id} (the run's own, with everything in it)`;
  try {
    const result = await control.emulator.tenants.remove(id);
    if (result.ok || result.status === 404) return { description, ok: true };
    return { description, ok: false, error: `DELETE /_emulator/tenants/${id} answered ${result.status}` };
  } catch (error) {
    return { description, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Makes the run's two tenants, named with the run id; on any failure removes what it made and throws OwnTenantsError. */
export async function makeOwnTenants(target: Target, runId: string): Promise<OwnTenants> {
  const control = controlOf(target);
  const made = await Promise.allSettled(['primary', 'second'].map((label) => control.emulator.tenants.create({ name: `conf-${runId}-${label}` })));
  const tenants = made.flatMap((outcome) => (outcome.status === 'fulfilled' && outcome.value.ok ? [outcome.value.body.data] : []));
  if (tenants.length < made.length) {
    await Promise.all(tenants.map(({ tenant }) => removeTenant(control, tenant.id)));
    const failed = made.find((outcome) => outcome.status === 'rejected' || !outcome.value.ok)!;
    const why =
      failed.status === 'rejected'
        ? failed.reason instanceof Error
          ? failed.reason.message
          : String(failed.reason)
        : `answered ${failed.value.status}: ${failed.value.text.slice(0, 200)}`;
    throw new OwnTenantsError(`--own-tenants could not make the run's tenants: POST ${new URL(target.baseUrl).origin}/_emulator/tenants ${why}`);
  }
  const [primary, second] = tenants as [(typeof tenants)[number], (typeof tenants)[number]];
  return {
    target: { ...target, apiKey: primary.apiKey, secondApiKey: second.apiKey },
    ids: [primary.tenant.id, second.tenant.id],
    remove: () => Promise.all([primary, second].map(({ tenant }) => removeTenant(control, tenant.id))),
  };
}
