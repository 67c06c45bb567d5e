/**
 * The console reporter: a line per check as it finishes, grouped under its area, with
 * progress and timing; then the failures again with their reasons, cleanup, and a summary.
 */
import chalk from 'chalk';
import type { CleanupResult, RunListener, RunReport } from '../runner.js';
import { countResults } from '../summary.js';
import type { CheckResult, Outcome } from '../types.js';

const MARK: Record<Outcome, string> = {
  passed: chalk.green('✓'),
  failed: chalk.red('✗'),
  skipped: chalk.yellow('-'),
  expected: chalk.cyan('~'),
  error: chalk.magenta('!'),
};

const indent = (text: string, by = '      '): string => text.split('\n').map((line) => `${by}${line}`).join('\n');
const seconds = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);

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
        for (const result of failures) write(`  ${MARK[result.outcome]} ${result.id} — ${result.description} (${result.spec})\n${chalk.red(indent(result.reason ?? ''))}\n`);
      }
      write(`\n${chalk.bold('By area')}\n`);
      const areas = new Map<string, CheckResult[]>();
      for (const result of report.results) areas.set(result.area, [...(areas.get(result.area) ?? []), result]);
      const width = Math.max(...[...areas.keys()].map((a) => a.length), 4);
      for (const [name, results] of areas) {
        const c = countResults({ results });
        const time = seconds(results.reduce((sum, r) => sum + r.durationMs, 0));
        const bad = c.failed + c.error > 0 ? chalk.red(`${c.failed + c.error} failed`) : '0 failed';
        write(`  ${name.padEnd(width)}  ${chalk.green(`${c.passed} passed`)}, ${bad}, ${c.skipped + c.expected} skipped  ${chalk.dim(time)}\n`);
      }
      const removed = report.cleanup.filter((c) => c.ok).length;
      write(`\n${chalk.bold('Cleanup')}: removed ${removed} of ${report.cleanup.length} records the run created`);
      if (report.kept.length > 0) write(`; kept ${report.kept.length} users (the spec has no way to delete a user; their e-mails and names carry run id ${report.runId})`);
      write('\n');
      const parts = [
        chalk.green(`${counts.passed} passed`),
        counts.failed > 0 ? chalk.red(`${counts.failed} failed`) : `${counts.failed} failed`,
        `${counts.skipped} skipped`,
        ...(counts.expected > 0 ? [chalk.cyan(`${counts.expected} known failures (baseline)`)] : []),
        ...(counts.error > 0 ? [chalk.magenta(`${counts.error} target errors`)] : []),
      ];
      write(`${chalk.bold('Summary')}: ${parts.join(', ')} of ${counts.total} checks in ${seconds(report.durationMs)} (profile ${report.profile}, ${report.baseUrl})${report.interrupted ? chalk.yellow(' — interrupted') : ''}\n`);
    },
  };
}
