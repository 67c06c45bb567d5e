/**
 * Counting a run's results, the words every report uses for them, and the exit code they mean
 * (0 pass, 1 failures, 2 the target did not answer).
 */
import { belowMinimum, type Coverage } from './coverage.js';
import type { RunReport } from './runner.js';
import type { Outcome } from './types.js';

export type Counts = Record<Outcome, number> & { total: number };

export function countResults(report: Pick<RunReport, 'results'>): Counts {
  const counts: Counts = { total: report.results.length, passed: 0, failed: 0, skipped: 0, expected: 0, error: 0 };
  for (const result of report.results) counts[result.outcome] += 1;
  return counts;
}

/** Each outcome's words, one and many: `expected` is a known failure (baseline), `error` a target error. */
export const OUTCOME_WORDS: Record<Outcome, readonly [string, string]> = {
  passed: ['passed', 'passed'],
  failed: ['failed', 'failed'],
  skipped: ['skipped', 'skipped'],
  expected: ['known failure', 'known failures'],
  error: ['target error', 'target errors'],
};

/**
 * The counts in words, the same for a whole run and for one area: passed, failed and skipped
 * always, known failures and target errors when there are any.
 */
export function countParts(counts: Counts): Array<{ outcome: Outcome; text: string }> {
  const outcomes: Outcome[] = ['passed', 'failed', 'skipped', 'expected', 'error'];
  return outcomes
    .filter((outcome) => outcome === 'passed' || outcome === 'failed' || outcome === 'skipped' || counts[outcome] > 0)
    .map((outcome) => ({ outcome, text: `${counts[outcome]} ${OUTCOME_WORDS[outcome][counts[outcome] === 1 ? 0 : 1]}` }));
}

/** An interrupted run is 130 (as for SIGINT); otherwise errors outrank failures; a coverage below `--min-coverage` fails the run. */
export function exitCodeOf(report: Pick<RunReport, 'results' | 'interrupted'> & { coverage?: Coverage }): number {
  if (report.interrupted) return 130;
  const counts = countResults(report);
  if (counts.error > 0) return 2;
  return counts.failed > 0 || belowMinimum(report.coverage) ? 1 : 0;
}
