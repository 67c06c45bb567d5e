/**
 * The check catalogue, in report order: reads before writes where it matters, the checks that
 * hold the emulator clock (sessions, challenges, codes) before those that move it, and the
 * retries and the DLQ last, so nothing after them sees a day jump. Checks that conflict run in
 * this order (schedule.ts); the rest run at once.
 */
import { apiKeyChecks } from './checks/api-keys.js';
import { analyticsChecks } from './checks/analytics.js';
import { appChecks } from './checks/apps.js';
import { authChecks } from './checks/auth.js';
import { billingChecks } from './checks/billing.js';
import { controlChecks } from './checks/control.js';
import { customDomainChecks } from './checks/custom-domains.js';
import { errorChecks } from './checks/errors.js';
import { exactFigureChecks, figureChecks } from './checks/figures.js';
import { guestChecks } from './checks/guests.js';
import { isolationChecks } from './checks/isolation.js';
import { limitChecks, rateLimitChecks } from './checks/limits.js';
import { stateChecks } from './checks/states.js';
import { faultChecks, fixedPathFaultChecks } from './checks/status-faults.js';
import { statusChecks } from './checks/statuses.js';
import { telegramChecks } from './checks/telegram.js';
import { mfaChecks } from './checks/mfa.js';
import { passkeyChecks } from './checks/passkeys.js';
import { healthChecks, tenantChecks } from './checks/tenant-health.js';
import { userChecks } from './checks/users.js';
import { webhookDeliveryChecks } from './checks/webhook-delivery.js';
import { webhookRetryChecks } from './checks/webhook-retries.js';
import { webhookChecks } from './checks/webhooks.js';
import { walletChecks } from './checks/wallets.js';
import type { Check } from './types.js';

/** Checks that move the emulator clock (and so end sessions and come due deliveries) run last. */
const movesClock = (check: Check): boolean => check.uses?.clock === 'moves' || check.uses?.clock === 'steps';

/** The checks as their files declare them, in report order. */
export const CHECKS: readonly Check[] = [
  ...healthChecks,
  ...authChecks,
  ...errorChecks,
  ...tenantChecks,
  ...appChecks,
  ...userChecks,
  ...apiKeyChecks,
  ...isolationChecks,
  ...guestChecks,
  ...analyticsChecks,
  ...billingChecks.filter((check) => !movesClock(check)),
  ...customDomainChecks,
  ...telegramChecks,
  ...passkeyChecks.filter((check) => !movesClock(check)),
  ...webhookChecks,
  ...webhookDeliveryChecks,
  ...walletChecks.filter((check) => !movesClock(check)),
  ...limitChecks,
  ...controlChecks,
  ...mfaChecks,
  ...figureChecks.filter((check) => !movesClock(check)),
  ...stateChecks,
  ...statusChecks,
  ...faultChecks,
  ...walletChecks.filter(movesClock),
  ...passkeyChecks.filter(movesClock),
  ...figureChecks.filter(movesClock),
  ...billingChecks.filter(movesClock),
  ...webhookRetryChecks,
  // Alone: its faults are on paths every check calls.
  ...fixedPathFaultChecks,
  // In a tenant of its own, which no other check calls: it counts that tenant's calls and records.
  ...exactFigureChecks,
  // Alone at the end: its flood of requests would hold up any check running beside it.
  ...rateLimitChecks,
];

const SPEC_PAGE = 'docs/service-api.md';
const DESIGN_PAGE = 'docs/design.md';

/**
 * A check's citations followed by the pages that hold them ("part 6, D9" gets "— docs/service-api.md#part-6,
 * docs/design.md#d9"): `spec` is printed by --list and every report, and a bare number names no file.
 */
export function withDocPaths(spec: string): string {
  const paths = [...spec.matchAll(/\bparts? (\d+)|\bD(\d{1,2})\b/g)].map((m) => (m[1] === undefined ? `${DESIGN_PAGE}#d${m[2]}` : `${SPEC_PAGE}#part-${m[1]}`));
  return paths.length === 0 ? spec : `${spec} — ${[...new Set(paths)].join(', ')}`;
}

/** The catalogue a run uses: every check, its citations resolvable in the repo's docs/. */
export const CATALOGUE: readonly Check[] = CHECKS.map((check) => ({ ...check, spec: withDocPaths(check.spec) }));

/** Ids must be unique and every check must say where its rule comes from. */
export function catalogueProblems(checks: readonly Check[] = CATALOGUE): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) problems.push(`duplicate id ${check.id}`);
    seen.add(check.id);
    if (check.tags.length === 0) problems.push(`${check.id} has no tags`);
    if (check.spec.trim() === '') problems.push(`${check.id} names no spec line`);
    if (check.slow === true && !check.tags.includes('slow')) problems.push(`${check.id} is slow but not tagged slow`);
    if (check.uses !== undefined && check.uses.why.trim() === '') problems.push(`${check.id} says not why it runs apart`);
  }
  return problems;
}
