/**
 * Baselines: known failures, each with a written reason. A listed check that fails reports
 * as `expected`; an entry whose check now passes, or that names no check, fails the run, so
 * a baseline never goes stale.
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

/** Applies the baseline to a run's results; answers the results plus one failure per stale entry. */
export function applyBaseline(results: CheckResult[], baseline: Baseline, catalogue: readonly Check[]): CheckResult[] {
  const byId = new Map(results.map((result) => [result.id, result]));
  const out = results.map((result) => {
    const entry = baseline.entries.find((e) => e.id === result.id);
    if (entry === undefined || result.outcome !== 'failed') return result;
    return { ...result, outcome: 'expected' as const, reason: `known failure (baseline: ${entry.reason})\n${result.reason ?? ''}` };
  });
  for (const entry of baseline.entries) {
    const stale = (reason: string): CheckResult => ({
      id: `baseline.${entry.id}`,
      area: 'baseline',
      tags: ['baseline'],
      description: `baseline entry ${entry.id}`,
      spec: 'the baseline file',
      profile: 'spec',
      outcome: 'failed',
      reason,
      durationMs: 0,
      notes: [],
    });
    if (!catalogue.some((check) => check.id === entry.id)) out.push(stale(`the baseline lists ${entry.id}, which is no check; remove the entry`));
    else if (byId.get(entry.id)?.outcome === 'passed') out.push(stale(`${entry.id} passes now; remove it from the baseline`));
  }
  return out;
}
