/**
 * `--plan` and `--list`: what a run would check, create and remove, without sending a write.
 */
import { RUN_SESSION_SETTINGS } from './checks/settings.js';
import type { Selected } from './select.js';
import type { Check } from './types.js';

/** What the checks of an area write, and how the run undoes it. */
const WRITES: Record<string, string> = {
  apps: 'apps named conf-<run>-… (deleted at the end)',
  users: 'users with e-mails conf-<run>-…@conformance.example (kept: the spec has no way to delete a user)',
  'api-keys': 'API keys named conf-<run>-… (revoked at the end; kept, listed as revoked: the spec has no way to delete a key)',
  auth: 'an API key named conf-<run>-… (revoked at once; kept, listed as revoked)',
  webhooks: 'webhooks to the suite receiver (deleted at the end, once none of their deliveries waits, so none goes to the DLQ); users for user.created (kept)',
  tenant: "the tenant's name (put back at the end)",
  isolation: 'an app, a user, a webhook and an API key of the first tenant (removed as above; the user kept)',
  emulator: 'a user (kept); a fault on a path no one else calls (used up by the check)',
  guests:
    'guest sessions (expired at the end; their guest users stay); for the bulk cleanup and the TTL expiry, a tenant of its own each (control plane) with a short guestTtl and its guest sessions (the tenants removed at the end, with everything in them)',
  mfa: 'guest sessions with MFA enabled (expired at the end)',
  mpc: 'a guest session with its wallet claimed and a key share stored (share deleted, session expired)',
  'delegated-sessions': 'delegated sessions of a guest wallet, and ledger contracts (sessions revoked at the end)',
  passkeys: 'WebAuthn challenges and users registered with a passkey, one per check (kept); a tenant that allows no origin gets https://<rpId> for the run',
  billing: 'checkout (to a plan the tenant is not on) and portal sessions at the emulated provider (never completed; they expire)',
  'custom-domains': 'the custom domain <run>.conformance.example (removed at once; skipped if the tenant has a domain)',
  telegram: 'a tenant of its own (control plane) with a bot token the check sets, and its Telegram user (the tenant removed at the end, with everything in it)',
  'rate-limits':
    'a tenant of its own on the free plan (control plane; removed at the end, with everything in it), or where the control plane makes none an API key (revoked at the end; kept, listed as revoked)',
};

/** Checks with these tags sign in (guest sessions, passkeys) and hold the session across clock moves. */
const SESSION_TAGS = ['guests', 'sessions', 'passkeys', 'mfa', 'mpc', 'wallets', 'delegated-sessions'];

/** How a check's `uses` keeps it apart from others, in --list's words. */
function laneOf(check: Check): string[] {
  const { uses } = check;
  if (uses === undefined) return [];
  return [
    ...(uses.clock === undefined ? [] : [`${uses.clock} the clock`]),
    ...(uses.lists === undefined ? [] : ['walks the lists']),
    ...(uses.floods === true ? ['floods the target, last'] : []),
  ];
}

export function listLine(check: Check): string {
  const flags = [check.profile, ...(check.creates ? ['creates'] : ['read-only']), ...(check.slow === true ? ['slow'] : []), ...laneOf(check)];
  return `${check.id}\t${check.tags.join(',')}\t${check.description}\t(spec: ${check.spec})\t[${flags.join(', ')}]`;
}

export function planText(selected: Selected[], context: { baseUrl: string; profile: string; ownTenants?: boolean }): string {
  const lines = [`Plan for ${context.baseUrl} (profile ${context.profile}): ${selected.length} checks; nothing has been sent but reads.`];
  if (context.ownTenants === true) {
    lines.push(
      '--own-tenants: the run makes two tenants of its own (POST /_emulator/tenants), works only in them and removes them at the end with everything in them; your tenants get nothing of what follows. The emulator clock is shared: it still moves.',
    );
  }
  const writers = selected.filter(({ check, skipReason }) => check.creates && skipReason === undefined);
  lines.push(`${selected.length - writers.length} checks only read; ${writers.length} write:`);
  for (const { check } of writers) {
    const area = check.tags[0] ?? '';
    const clock = check.uses?.clock === 'moves' || check.uses?.clock === 'steps' ? '; advances the emulator clock' : '';
    lines.push(`  ${check.id}: ${WRITES[area] ?? 'records named with the run id (removed at the end)'}${clock}`);
  }
  for (const { check, skipReason } of selected) if (skipReason !== undefined) lines.push(`  skipped: ${check.id} (${skipReason})`);
  if (writers.some(({ check }) => check.profile === 'emulator' && check.tags.some((tag) => SESSION_TAGS.includes(tag)))) {
    const { sessionTtl, guestTtl, mfaFreshness } = RUN_SESSION_SETTINGS;
    lines.push(
      `The tenant's settings sessionTtl, guestTtl and mfaFreshness are set to ${sessionTtl}, ${guestTtl} and ${mfaFreshness} for the run where they differ, and put back at the end.`,
    );
  }
  if (writers.some(({ check }) => check.tags.includes('retries') && check.profile === 'emulator')) {
    lines.push(
      'The emulator clock moves ahead about ten days in all (the retry schedule, the DLQ, expiry, the analytics window); the end of the run says how far.',
    );
  }
  if (context.profile === 'emulator') {
    lines.push('The emulator clock runs at real speed (×1) while the run lasts, from where it is found, and its speed is put back at the end.');
  }
  lines.push('Every record a run creates carries the run id; cleanup runs at the end even after failures or Ctrl-C.');
  return `${lines.join('\n')}\n`;
}
