/**
 * The console reporter: a line per check as it finishes, grouped under its area, with
 * progress and timing; then the failures again with their reasons, cleanup, and a summary.
 * The header, the areas and the summary count the same set, the selected checks, in the
 * same words (summary.ts).
 */
import chalk from 'chalk';
import { belowMinimum, coverageLine, neverExercised } from '../coverage.js';
import { NOT_RUN, type CleanupResult, type RunListener, type RunReport } from '../runner.js';
import { clockMoveText } from '../run-clock.js';
import { countParts, countResults, type Counts } from '../summary.js';
import type { CheckResult, Outcome } from '../types.js';

const MARK: Record<Outcome, string> = {
  passed: chalk.green('✓'),
  failed: chalk.red('✗'),
  skipped: chalk.yellow('-'),
  expected: chalk.cyan('~'),
  error: chalk.magenta('!'),
};

const PAINT: Record<Outcome, (text: string) => string> = {
  passed: chalk.green,
  failed: chalk.red,
  skipped: (text) => text,
  expected: chalk.cyan,
  error: chalk.magenta,
};

/** The counts in the words every report uses (summary.ts); a zero is never coloured. */
function countsText(counts: Counts): string {
  return countParts(counts)
    .map(({ outcome, text }) => (counts[outcome] > 0 ? PAINT[outcome](text) : text))
    .join(', ');
}

const indent = (text: string, by = '      '): string =>
  text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');
const seconds = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);

/** What the run kept and why: users, and revoked API keys, which the spec has no way to delete. */
export function keptText(report: Pick<RunReport, 'kept' | 'runId'>): string {
  const keys = report.kept.filter((entry) => entry.startsWith('API key ')).length;
  const users = report.kept.length - keys;
  const parts = [...(users > 0 ? [`${users} users`] : []), ...(keys > 0 ? [`${keys} revoked API keys`] : [])];
  return `kept ${parts.join(' and ')} (the spec has no way to delete a user or a revoked key; their e-mails and names carry run id ${report.runId})`;
}

export interface ConsoleReporter {
  listener: RunListener;
  finish(report: RunReport): void;
}

export function consoleReporter(write: (text: string) => void, options: { verbose?: boolean } = {}): ConsoleReporter {
  let area = '';
  return {
    listener: {
      onStart(total, runId) {
        write(`${chalk.bold('svc conformance')} run ${chalk.cyan(runId)}: ${total} checks\n`);
      },
      onCheckEnd(result: CheckResult, index, total) {
        if (result.area !== area) {
          area = result.area;
          write(`\n${chalk.bold(area)}\n`);
        }
        const progress = chalk.dim(`[${String(index + 1).padStart(String(total).length)}/${total}]`);
        write(`  ${progress} ${MARK[result.outcome]} ${result.id} ${chalk.dim(seconds(result.durationMs))}\n`);
        if (result.outcome === 'skipped' && result.reason) write(chalk.yellow(indent(`skipped: ${result.reason}`)) + '\n');
        if ((result.outcome === 'failed' || result.outcome === 'error') && result.reason) write(chalk.red(indent(result.reason)) + '\n');
        if (options.verbose === true) for (const note of result.notes) write(chalk.dim(indent(note)) + '\n');
      },
      onBackoff(url, waitMs) {
        write(chalk.dim(`      rate limited (429): waiting ${seconds(waitMs)} as Retry-After says (${new URL(url).pathname})\n`));
      },
      onCleanup(entry: CleanupResult) {
        if (!entry.ok) write(chalk.yellow(`  cleanup failed: ${entry.description}: ${entry.error}\n`));
      },
    },
    finish(report) {
      const counts = countResults(report);
      const failures = report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'error');
      if (failures.length > 0) {
        write(`\n${chalk.bold.red('Failures')}\n`);
        for (const result of failures)
          write(`  ${MARK[result.outcome]} ${result.id} — ${result.description} (${result.spec})\n${chalk.red(indent(result.reason ?? ''))}\n`);
      }
      write(`\n${chalk.bold('By area')}\n`);
      const areas = new Map<string, CheckResult[]>();
      for (const result of report.results) areas.set(result.area, [...(areas.get(result.area) ?? []), result]);
      const width = Math.max(...[...areas.keys()].map((a) => a.length), 4);
      for (const [name, results] of areas) {
        const time = seconds(results.reduce((sum, r) => sum + r.durationMs, 0));
        write(`  ${name.padEnd(width)}  ${countsText(countResults({ results }))}  ${chalk.dim(time)}\n`);
      }
      const removed = report.cleanup.filter((c) => c.ok).length;
      write(`\n${chalk.bold('Cleanup')}: removed ${removed} of ${report.cleanup.length} records the run created`);
      if (report.kept.length > 0) write(`; ${keptText(report)}`);
      write('\n');
      if (report.clock !== undefined) write(`${chalk.bold('Clock')}: ${clockMoveText(report.clock)}\n`);
      const never = neverExercised(report.coverage);
      const line = coverageLine(report.coverage);
      write(`${belowMinimum(report.coverage) ? chalk.red(line) : line}\n`);
      if (never.length > 0)
        write(chalk.dim(`  never exercised: ${never.map((operation) => `${operation.operationId} (${operation.method} ${operation.path})`).join(', ')}\n`));
      const notRun = report.results.filter((r) => r.outcome === 'skipped' && r.reason?.startsWith(NOT_RUN) === true);
      const stopped = notRun.length > 0 ? ` (${notRun.length} ${notRun[0]!.reason})` : '';
      write(
        `${chalk.bold('Summary')}: ${countsText(counts)}${stopped} of ${counts.total} checks in ${seconds(report.durationMs)} (profile ${report.profile}, ${report.baseUrl})${report.interrupted ? chalk.yellow(' — interrupted') : ''}\n`,
      );
    },
  };
}
