/**
 * Baselines: known failures, each with a written reason. A listed check that fails reports
 * as `expected` (a known failure); a listed check that passes fails, and an entry that names
 * no check is refused before the run, so a baseline never goes stale.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Check, CheckResult } from './types.js';

export const BaselineFile = z.object({
  entries: z.array(
    z.object({
      id: z.string().min(1),
      reason: z.string().trim().min(1, 'every baseline entry needs a written reason'),
    }),
  ),
});
export type Baseline = z.infer<typeof BaselineFile>;

export class BaselineError extends Error {}

export async function loadBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot read the baseline ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(`the baseline ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = BaselineFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BaselineError(`the baseline ${path} is not valid: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Entries that name no check of the catalogue. They are a usage error found before the run
 * (as --only's unknown selectors are), so they never stand in a report beside the checks.
 */
export function unknownEntries(baseline: Baseline, catalogue: readonly Check[]): string[] {
  return baseline.entries.map((entry) => entry.id).filter((id) => !catalogue.some((check) => check.id === id));
}

/**
 * One check's result with the baseline applied: a listed failure is `expected` (a known
 * failure); a listed check that passes is `failed`, because the entry is stale and must go.
 * Every check keeps exactly one result, so the reports count the checks and nothing else.
 */
export function baselined(result: CheckResult, baseline: Baseline): CheckResult {
  const entry = baseline.entries.find((e) => e.id === result.id);
  if (entry === undefined) return result;
  if (result.outcome === 'failed') {
    return { ...result, outcome: 'expected', reason: `known failure (baseline: ${entry.reason})\n${result.reason ?? ''}` };
  }
  if (result.outcome === 'passed') {
    return { ...result, outcome: 'failed', reason: `${result.id} passes now; remove it from the baseline (it says: ${entry.reason})` };
  }
  return result;
}

/** Applies the baseline to every result of a run. */
export function applyBaseline(results: CheckResult[], baseline: Baseline): CheckResult[] {
  return results.map((result) => baselined(result, baseline));
}
