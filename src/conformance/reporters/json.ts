/** The JSON reporter: the whole run report, with counts and the exit code, for scripts. */
import type { RunReport } from '../runner.js';
import { countResults, exitCodeOf } from '../summary.js';

export function jsonReport(report: RunReport): string {
  return `${JSON.stringify({ ...report, counts: countResults(report), exitCode: exitCodeOf(report) }, null, 2)}\n`;
}
