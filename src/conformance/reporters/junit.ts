/**
 * The JUnit XML reporter, in the shape GitHub Actions test reporters, GitLab CI and Jenkins
 * read: one <testsuite> per area, one <testcase> per selected check (`tests` is the count the
 * console's header and summary give); failures as <failure>, target errors as <error>, skips
 * and known failures (baseline) as <skipped> — JUnit has no known failure, so `skipped` is the
 * console's skipped plus known failures, and the message of a known failure says so.
 */
import { coverageLine, type Coverage } from '../coverage.js';
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

/**
 * The run's coverage as properties (JUnit's place for what is not a test case), on a suite of
 * its own with no test case: the summary, each operation's documented and exercised statuses,
 * and the event types delivered.
 */
function coverageSuite(coverage: Coverage, startedAt: string): string {
  const property = (name: string, value: string): string => `      <property name="${xmlEscape(name)}" value="${xmlEscape(value)}"/>`;
  const properties = [
    property('coverage', coverageLine(coverage)),
    property('coverage.percent', coverage.percent.toFixed(1)),
    property('coverage.pairs', `${coverage.exercisedPairs}/${coverage.documentedPairs}`),
    ...(coverage.minimum === undefined ? [] : [property('coverage.minimum', String(coverage.minimum))]),
    ...coverage.operations.map((operation) =>
      property(
        `coverage.operation.${operation.operationId}`,
        `${operation.method} ${operation.path} documented ${operation.documented.join(',')} exercised ${operation.exercised.join(',') || 'none'}`,
      ),
    ),
    property('coverage.events', coverage.events.join(',')),
  ];
  return [
    `  <testsuite name="conformance.coverage" tests="0" failures="0" errors="0" skipped="0" time="0.000" timestamp="${startedAt.slice(0, 19)}">`,
    '    <properties>',
    ...properties,
    '    </properties>',
    '  </testsuite>',
  ].join('\n');
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
    coverageSuite(report.coverage, report.startedAt),
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
