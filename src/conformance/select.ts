/**
 * Which checks a run holds (D14): the profile, `slow` only with --include-slow,
 * --read-only leaves out checks that create, --only/--skip by id, id prefix or tag.
 * Checks left out for a reason the user may not expect are reported as skipped, not hidden.
 */
import type { Check, Profile } from './types.js';

export interface Selection {
  profile: Profile;
  includeSlow: boolean;
  readOnly: boolean;
  only: string[];
  skip: string[];
  hasSecondKey: boolean;
}

export interface Selected {
  check: Check;
  /** Set when the check is in the run but cannot run; reported as skipped with this reason. */
  skipReason?: string;
}

/** A selector matches a check's id, an id prefix ending at a dot (`webhooks.user-created`), or a tag. */
export function matches(check: Check, selector: string): boolean {
  return check.id === selector || check.id.startsWith(`${selector}.`) || check.tags.includes(selector);
}

export function selectChecks(catalogue: readonly Check[], selection: Selection): Selected[] {
  const chosen: Selected[] = [];
  for (const check of catalogue) {
    if (selection.only.length > 0 && !selection.only.some((s) => matches(check, s))) continue;
    if (selection.skip.some((s) => matches(check, s))) continue;
    if (check.profile === 'emulator' && selection.profile === 'spec') continue;
    if (check.slow === true && !selection.includeSlow) continue;
    if (check.creates && selection.readOnly) continue;
    if (check.needsSecondKey === true && !selection.hasSecondKey) {
      chosen.push({ check, skipReason: 'needs --second-api-key (a key of another tenant)' });
      continue;
    }
    chosen.push({ check });
  }
  return chosen;
}

/** Selectors that match no check at all are usage errors (a typo must not pass silently). */
export function unknownSelectors(catalogue: readonly Check[], selectors: string[]): string[] {
  return selectors.filter((s) => !catalogue.some((check) => matches(check, s)));
}
