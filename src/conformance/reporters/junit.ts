/**
 * The JUnit XML reporter, in the shape GitHub Actions test reporters, GitLab CI and Jenkins
 * read: one <testsuite> per area, one <testcase> per selected check (`tests` is the count the
 * console's header and summary give); failures as <failure>, target errors as <error>, skips
 * and known failures (baseline) as <skipped> — JUnit has no known failure, so `skipped` is the
 * console's skipped plus known failures, and the message of a known failure says so.
 */
import type { RunReport } from '../runner.js';
import { countResults } from '../summary.js';
import type { CheckResult } from '../types.js';

/** XML 1.0 text: escapes markup and drops characters XML cannot hold. */
export function xmlEscape(text: string): string {
  // Drops what XML 1.0 cannot hold; tab, newline and return are the control characters it allows.
  // eslint-disable-next-line no-control-regex
  const allowed = text.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
  return allowed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const secs = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(result: CheckResult): string {
  const head = `    <testcase classname="conformance.${xmlEscape(result.area)}" name="${xmlEscape(`${result.id}: ${result.description}`)}" time="${secs(result.durationMs)}">`;
  const reason = xmlEscape(result.reason ?? '');
  const firstLine = xmlEscape((result.reason ?? '').split('\n')[0] ?? '');
  const spec = xmlEscape(`spec: ${result.spec}`);
  switch (result.outcome) {
    case 'passed':
      return `${head}</testcase>`;
    case 'failed':
      return `${head}\n      <failure message="${firstLine}" type="${xmlEscape(result.id)}">${reason}\n${spec}</failure>\n    </testcase>`;
    case 'error':
      return `${head}\n      <error message="${firstLine}" type="TargetUnreachable">${reason}</error>\n    </testcase>`;
    case 'skipped':
    case 'expected':
      return `${head}\n      <skipped message="${firstLine}"/>\n    </testcase>`;
  }
}

export function junitReport(report: RunReport): string {
  const areas = new Map<string, CheckResult[]>();
  for (const result of report.results) areas.set(result.area, [...(areas.get(result.area) ?? []), result]);
  const total = countResults(report);
  const suites = [...areas].map(([area, results]) => {
    const counts = countResults({ results });
    const time = results.reduce((sum, r) => sum + r.durationMs, 0);
    return [
      `  <testsuite name="conformance.${xmlEscape(area)}" tests="${counts.total}" failures="${counts.failed}" errors="${counts.error}" skipped="${counts.skipped + counts.expected}" time="${secs(time)}" timestamp="${report.startedAt.slice(0, 19)}">`,
      ...results.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc conformance ${xmlEscape(report.runId)}" tests="${total.total}" failures="${total.failed}" errors="${total.error}" skipped="${total.skipped + total.expected}" time="${secs(report.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
