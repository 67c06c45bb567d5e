/**
 * `svc conformance`: runs the conformance suite against any deployment (DESIGN D14) and
 * exits 0 only when every selected check passes; 1 on failures; 2 on bad usage, an
 * unreachable target or a key the target rejects; 130 when interrupted (after cleanup).
 */
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { parseDuration } from '../../duration.js';
import { applyBaseline, BaselineError, loadBaseline, type Baseline } from '../../conformance/baseline.js';
import { CATALOGUE } from '../../conformance/catalogue.js';
import { listLine, planText } from '../../conformance/plan.js';
import { ConfigurationError, preflight, type ProfileChoice } from '../../conformance/preflight.js';
import { consoleReporter } from '../../conformance/reporters/console.js';
import { jsonReport } from '../../conformance/reporters/json.js';
import { junitReport } from '../../conformance/reporters/junit.js';
import { runSuite, type RunListener, type RunReport, type Target } from '../../conformance/runner.js';
import { selectChecks, unknownSelectors } from '../../conformance/select.js';
import { exitCodeOf } from '../../conformance/summary.js';
import { CliError, parseIntegerOption } from '../output.js';

const REPORTERS = ['console', 'json', 'junit'] as const;
type ReporterName = (typeof REPORTERS)[number];
interface ReporterChoice {
  name: ReporterName;
  output?: string;
}

interface ConformanceOptions {
  url?: string;
  apiKey?: string;
  secondApiKey?: string;
  only: string[];
  skip: string[];
  profile: ProfileChoice;
  readOnly?: boolean;
  receiverHost: string;
  receiverPort: number;
  timeout: number;
  bail?: boolean;
  list?: boolean;
  plan?: boolean;
  baseline?: string;
  includeSlow?: boolean;
  verbose?: boolean;
}

const splitList = (text: string, previous: string[] = []): string[] => [...previous, ...text.split(',').map((s) => s.trim()).filter(Boolean)];

function parseTimeout(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : parseDuration(text);
  if (ms === undefined || ms <= 0) throw new CliError(`--timeout must be a duration such as 30s or a number of seconds, got "${text}"`, 2);
  return ms;
}

export function registerConformance(program: Command): void {
  // Reporters and their --output files pair up in the order given on the command line.
  const reporters: ReporterChoice[] = [];
  program
    .command('conformance')
    .description('Check a deployment against the spec (and, where /_emulator answers, against DESIGN)')
    .option('--url <url>', 'base URL ending in /v1 (env SVC_URL)', process.env['SVC_URL'])
    .option('--api-key <key>', 'API key of the tenant to test (env SVC_API_KEY)', process.env['SVC_API_KEY'])
    .option('--second-api-key <key>', 'a key of another tenant, for isolation checks (env SVC_SECOND_API_KEY)', process.env['SVC_SECOND_API_KEY'])
    .option('--only <ids|tags>', 'run only checks matching these ids, id prefixes or tags (comma-separated, repeatable)', splitList, [])
    .option('--skip <ids|tags>', 'leave out checks matching these ids, id prefixes or tags', splitList, [])
    .option('--profile <profile>', 'spec, emulator or auto (emulator checks where /_emulator answers)', (value) => {
      if (value !== 'spec' && value !== 'emulator' && value !== 'auto') throw new CliError(`--profile must be spec, emulator or auto, got "${value}"`, 2);
      return value;
    }, 'auto')
    .option('--read-only', 'run only checks that create nothing')
    .option('--receiver-host <host>', 'address of the suite webhook receiver, reachable from the target', '127.0.0.1')
    .option('--receiver-port <port>', 'port of the receiver (0 picks a free one)', parseIntegerOption('--receiver-port', 0, 65535), 0)
    .addOption(new Option('--timeout <duration>', 'how long one call or delivery may take').argParser(parseTimeout).default(30_000, '30s'))
    .option('--bail', 'stop at the first failure (cleanup still runs)')
    .option('--reporter <name>', 'console, json or junit; repeat for several, each followed by its --output', (value: string) => {
      if (!(REPORTERS as readonly string[]).includes(value)) throw new CliError(`--reporter must be one of ${REPORTERS.join(', ')}, got "${value}"`, 2);
      reporters.push({ name: value as ReporterName });
      return value;
    })
    .option('--output <file>', 'file for the reporter named just before it (default: stdout)', (value: string) => {
      const last = reporters.at(-1);
      if (last === undefined || last.output !== undefined) throw new CliError(`--output ${value} must follow the --reporter it belongs to`, 2);
      last.output = value;
      return value;
    })
    .option('--list', 'list the checks (id, tags, description, spec line) and exit; nothing runs')
    .option('--plan', 'show what a run would create and remove, without sending a write')
    .option('--baseline <file>', 'known failures, each with a reason (JSON: {"entries":[{"id","reason"}]})')
    .option('--include-slow', 'also run checks that wait on real time (the first retry after 1 minute)')
    .option('--verbose', 'show notes of passing checks')
    .addHelpText(
      'after',
      `
Exit codes: 0 every selected check passed, 1 failures, 2 bad usage / unreachable target / key rejected, 130 interrupted.

Examples:
  $ svc conformance --url http://127.0.0.1:4010/v1 --api-key sk_test_acmeLocalDevKey00000000000000001
  $ svc conformance --url $URL --api-key $KEY --second-api-key $KEY2 --profile spec --include-slow
  $ svc conformance --url $URL --api-key $KEY --reporter console --reporter junit --output conformance.xml
  $ svc conformance --only webhooks --skip webhooks.retry-schedule --bail
  $ svc conformance --list | grep webhooks`,
    )
    .action(async (options: ConformanceOptions) => {
      process.exitCode = await conformance(options, reporters.length > 0 ? reporters : [{ name: 'console' }]);
    });
}

/** Shows baselined failures as known failures while the run goes. */
function withBaseline(listener: RunListener, baseline: Baseline | undefined): RunListener {
  if (baseline === undefined) return listener;
  return { ...listener, onCheckEnd: (result, index, total) => listener.onCheckEnd?.(applyBaseline([result], baseline, CATALOGUE)[0]!, index, total) };
}

function validateReporters(reporters: ReporterChoice[]): void {
  const toStdout = reporters.filter((r) => r.output === undefined);
  if (toStdout.length > 1) throw new CliError(`only one reporter may write to stdout; give --output for ${toStdout.slice(1).map((r) => r.name).join(', ')}`, 2);
}

async function conformance(options: ConformanceOptions, reporters: ReporterChoice[]): Promise<number> {
  const unknown = unknownSelectors(CATALOGUE, [...options.only, ...options.skip]);
  if (unknown.length > 0) throw new CliError(`no check has the id or tag ${unknown.map((s) => `"${s}"`).join(', ')} (see --list)`, 2);
  if (options.list === true) {
    const profile = options.profile === 'auto' ? 'emulator' : options.profile;
    const selected = selectChecks(CATALOGUE, { profile, includeSlow: true, readOnly: options.readOnly ?? false, only: options.only, skip: options.skip, hasSecondKey: true });
    process.stdout.write(selected.map(({ check }) => `${listLine(check)}\n`).join(''));
    return 0;
  }
  validateReporters(reporters);
  if (options.url === undefined || options.url === '') throw new CliError('give the base URL with --url (or SVC_URL), e.g. http://127.0.0.1:4010/v1', 2);
  if (options.apiKey === undefined || options.apiKey === '') throw new CliError('give an API key with --api-key (or SVC_API_KEY)', 2);
  const baseline = options.baseline === undefined ? undefined : await loadBaseline(options.baseline).catch((error: unknown) => {
    throw error instanceof BaselineError ? new CliError(error.message, 2) : error;
  });
  const target: Target = { baseUrl: options.url.replace(/\/+$/, ''), apiKey: options.apiKey, secondApiKey: options.secondApiKey, timeoutMs: options.timeout };
  let profile;
  try {
    ({ profile } = await preflight(target, options.profile));
  } catch (error) {
    if (error instanceof ConfigurationError) throw new CliError(`configuration: ${error.message}`, 2);
    throw error;
  }
  const selected = selectChecks(CATALOGUE, {
    profile,
    includeSlow: options.includeSlow ?? false,
    readOnly: options.readOnly ?? false,
    only: options.only,
    skip: options.skip,
    hasSecondKey: options.secondApiKey !== undefined,
  });
  if (options.plan === true) {
    process.stdout.write(planText(selected, { baseUrl: target.baseUrl, profile }));
    return 0;
  }

  const consoleChoice = reporters.find((r) => r.name === 'console');
  const consoleLines: string[] = [];
  const writeConsole = consoleChoice?.output === undefined ? (text: string) => void process.stdout.write(text) : (text: string) => void consoleLines.push(text);
  const live = consoleChoice === undefined ? undefined : consoleReporter(writeConsole, { verbose: options.verbose ?? false });

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\ninterrupted: removing what the run created (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let report: RunReport;
  try {
    report = await runSuite({
      target,
      selected,
      profile,
      receiver: { host: options.receiverHost, port: options.receiverPort },
      bail: options.bail ?? false,
      signal: controller.signal,
      ...(live === undefined ? {} : { listener: withBaseline(live.listener, baseline) }),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (baseline !== undefined) report = { ...report, results: applyBaseline(report.results, baseline, CATALOGUE) };
  live?.finish(report);
  for (const reporter of reporters) {
    const text = reporter.name === 'json' ? jsonReport(report) : reporter.name === 'junit' ? junitReport(report) : consoleLines.join('');
    if (reporter.output !== undefined) await writeFile(reporter.output, text);
    else if (reporter.name !== 'console') process.stdout.write(text);
  }
  return exitCodeOf(report);
}
