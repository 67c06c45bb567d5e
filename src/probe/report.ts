/**
 * The report card of `svc webhook probe`: on the console a line per case (what was sent and
 * what came back) and, under a failure or a warning, why it matters and how to fix it; the
 * same run as JSON, or as JUnit XML for CI (escaped as `svc conformance`'s JUnit report is).
 */
import chalk from 'chalk';
import { xmlEscape } from '../conformance/reporters/junit.js';
import type { Answer, CaseResult, DeliveryResult, Outcome, ProbeReport } from './types.js';

const MARK: Record<Outcome, string> = { passed: chalk.green('✓'), failed: chalk.red('✗'), warned: chalk.yellow('!') };

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

/** The answer in a few words: status and the start of its body, or why none came. */
export function answerText(answer: Answer): string {
  if (answer.status === null) return answer.error ?? 'no answer';
  const line = answer.text.replace(/\s+/g, ' ').trim();
  const body = line === '' ? '' : ` ${JSON.stringify(line.length > 100 ? `${line.slice(0, 100)}…` : line)}`;
  const location = answer.location === null ? '' : ` → ${answer.location}`;
  return `${answer.status}${location}${body}`;
}

/** What the case got, for its one line: the last answer's status (or "—") and time. */
function lastAnswer(result: CaseResult): string {
  const last = result.deliveries.at(-1)?.answer;
  if (last === undefined) return '—';
  return `${last.status === null ? (last.failure === 'timeout' ? 'timeout' : 'error') : last.status} ${ms(last.durationMs)}`;
}

function deliveryLines(delivery: DeliveryResult, index: number, count: number): string[] {
  const label = count > 1 ? `sent ${index + 1}:` : 'sent:';
  const got = delivery.answer.status === null ? answerText(delivery.answer) : `${answerText(delivery.answer)} in ${ms(delivery.answer.durationMs)}`;
  return [`${label.padEnd(8)}${delivery.sent} (${delivery.eventId})`, `${'got:'.padEnd(8)}${got}`];
}

function details(result: CaseResult): string[] {
  const lines = result.deliveries.flatMap((d, i) => deliveryLines(d, i, result.deliveries.length));
  if (result.reason !== null) lines.push(`${(result.outcome === 'warned' ? 'warning:' : 'fails:').padEnd(8)}${result.reason}`);
  lines.push(`${'why:'.padEnd(8)}${result.why}`, `${'fix:'.padEnd(8)}${result.fix}`, `${'docs:'.padEnd(8)}${result.docs}`);
  return lines;
}

/** The header printed before the run. */
export function headerText(url: string, cases: number, timeoutMs: number, caseTimeoutMs: number, concurrency: number): string {
  return [
    `${chalk.bold('svc webhook probe')} ${chalk.cyan(url)}`,
    chalk.dim(
      `  ${cases} cases, ${concurrency} at a time; each answer awaited ${ms(caseTimeoutMs)}, the timing case's ${ms(timeoutMs)}${timeoutMs === 30_000 ? " (the spec's limit)" : ''}`,
    ),
    '',
  ].join('\n');
}

/** One case, as the console shows it. */
export function caseText(result: CaseResult, options: { verbose?: boolean } = {}): string {
  const head = `  ${MARK[result.outcome]} ${result.id.padEnd(34)} ${lastAnswer(result).padEnd(14)} ${chalk.dim(result.summary)}${result.severity === 'warning' ? chalk.yellow(' (warning)') : ''}`;
  if (result.outcome === 'passed' && options.verbose !== true) return head;
  const paint = result.outcome === 'failed' ? chalk.red : result.outcome === 'warned' ? chalk.yellow : chalk.dim;
  return [head, ...details(result).map((line) => paint(`      ${line}`))].join('\n');
}

/** The lines after the cases: the answer times and the counts. */
export function summaryText(report: ProbeReport): string {
  const { timing, counts } = report;
  const times =
    timing.answered === 0
      ? 'no delivery that should be accepted was answered 2xx'
      : `median ${ms(timing.medianMs!)}, slowest ${ms(timing.slowestMs!)} (${timing.slowestCase}) over ${timing.answered} accepted deliveries`;
  const parts = [
    counts.passed > 0 ? chalk.green(`${counts.passed} passed`) : '0 passed',
    counts.failed > 0 ? chalk.red(`${counts.failed} failed`) : '0 failed',
    ...(counts.warned > 0 ? [chalk.yellow(`${counts.warned} ${counts.warned === 1 ? 'warning' : 'warnings'}`)] : []),
  ];
  return [
    '',
    `${chalk.bold('Answers')}: ${times}`,
    `${chalk.bold('Summary')}: ${parts.join(', ')} of ${counts.total} cases in ${ms(report.durationMs)} (${report.url})`,
    '',
  ].join('\n');
}

/** The whole run as JSON, for scripts. */
export function jsonReport(report: ProbeReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const secs = (value: number): string => (value / 1000).toFixed(3);

function testcase(result: CaseResult): string {
  const head = `    <testcase classname="webhook-probe.${xmlEscape(result.id.split('.')[0]!)}" name="${xmlEscape(`${result.id}: ${result.summary}`)}" time="${secs(result.durationMs)}">`;
  const body = xmlEscape(details(result).join('\n'));
  switch (result.outcome) {
    case 'passed':
      return `${head}</testcase>`;
    case 'failed':
      return `${head}\n      <failure message="${xmlEscape(result.reason ?? '')}" type="${xmlEscape(result.id)}">${body}</failure>\n    </testcase>`;
    case 'warned':
      // JUnit has no warning: the case passes, and says why in its output.
      return `${head}\n      <system-out>warning: ${body}</system-out>\n    </testcase>`;
  }
}

/** The run as JUnit XML: one suite, one testcase per case; failures as <failure>, warnings in <system-out>. */
export function junitReport(report: ProbeReport): string {
  const { counts } = report;
  const suite = `  <testsuite name="webhook-probe" tests="${counts.total}" failures="${counts.failed}" errors="0" skipped="0" time="${secs(report.durationMs)}" timestamp="${report.startedAt.slice(0, 19)}">`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc webhook probe ${xmlEscape(report.url)}" tests="${counts.total}" failures="${counts.failed}" errors="0" time="${secs(report.durationMs)}">`,
    suite,
    ...report.results.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
