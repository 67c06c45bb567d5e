/** Counting a run's results and the exit code they mean (0 pass, 1 failures, 2 the target did not answer). */
import type { RunReport } from './runner.js';
import type { Outcome } from './types.js';

export type Counts = Record<Outcome, number> & { total: number };

export function countResults(report: Pick<RunReport, 'results'>): Counts {
  const counts: Counts = { total: report.results.length, passed: 0, failed: 0, skipped: 0, expected: 0, error: 0 };
  for (const result of report.results) counts[result.outcome] += 1;
  return counts;
}

/** An interrupted run is 130 (as for SIGINT); otherwise errors outrank failures. */
export function exitCodeOf(report: Pick<RunReport, 'results' | 'interrupted'>): number {
  if (report.interrupted) return 130;
  const counts = countResults(report);
  if (counts.error > 0) return 2;
  return counts.failed > 0 ? 1 : 0;
}
