/**
 * The run of `svc conformance` (the command and its flags are in conformance.ts, the options
 * they make are defined here): runs the suite against any deployment (D14) and exits
 * 0 only when every selected check passes; 1 on failures; 2 on bad usage, an unreachable
 * target or a key the target rejects; 130 when interrupted (after cleanup).
 */
import { writeFile } from 'node:fs/promises';
import { apiBaseUrl, BaseUrlError } from '../../base-url.js';
import { applyBaseline, BaselineError, baselined, loadBaseline, unknownEntries, type Baseline } from '../../conformance/baseline.js';
import { CATALOGUE } from '../../conformance/catalogue.js';
import { listLine, planText } from '../../conformance/plan.js';
import { OwnTenantsError } from '../../conformance/own-tenants.js';
import { ConfigurationError, ownTenantsPreflight, preflight, type ProfileChoice } from '../../conformance/preflight.js';
import { consoleReporter } from '../../conformance/reporters/console.js';
import { jsonReport } from '../../conformance/reporters/json.js';
import { junitReport } from '../../conformance/reporters/junit.js';
import { runSuite, type RunListener, type RunReport, type Target } from '../../conformance/runner.js';
import { selectChecks, unknownSelectors } from '../../conformance/select.js';
import { exitCodeOf } from '../../conformance/summary.js';
import { CliError } from '../output.js';

import { validateReporters, type ReporterChoice } from '../reporter-options.js';

export type { ReporterChoice, ReporterName } from '../reporter-options.js';

/** What `svc conformance` parsed from its flags (conformance.ts). */
export interface ConformanceOptions {
  url?: string;
  apiKey?: string;
  secondApiKey?: string;
  only: string[];
  skip: string[];
  profile: ProfileChoice;
  readOnly?: boolean;
  /** `--own-tenants`: run in two tenants made through the control plane and removed at the end (own-tenants.ts). */
  ownTenants?: boolean;
  receiverHost: string;
  receiverPort: number;
  timeout: number;
  concurrency: number;
  bail?: boolean;
  list?: boolean;
  plan?: boolean;
  baseline?: string;
  includeSlow?: boolean;
  /** `--min-coverage`: the least share of documented (operation, status) pairs the run must exercise, in %. */
  minCoverage?: number;
  verbose?: boolean;
}

/** Shows each result with the baseline applied while the run goes, as the reports will. */
function withBaseline(listener: RunListener, baseline: Baseline | undefined): RunListener {
  if (baseline === undefined) return listener;
  return { ...listener, onCheckEnd: (result, index, total) => listener.onCheckEnd?.(baselined(result, baseline), index, total) };
}

async function readBaseline(path: string): Promise<Baseline> {
  let baseline: Baseline;
  try {
    baseline = await loadBaseline(path);
  } catch (error) {
    throw error instanceof BaselineError ? new CliError(error.message, 2) : error;
  }
  const unknown = unknownEntries(baseline, CATALOGUE);
  if (unknown.length > 0) throw new CliError(`the baseline ${path} lists ${unknown.join(', ')}, which is no check (see --list); remove the entry`, 2);
  return baseline;
}

/** `--url` as the API base: an origin gets /v1, as everywhere `--url` is taken (src/base-url.ts). */
function baseUrlOf(url: string): string {
  try {
    return apiBaseUrl(url);
  } catch (error) {
    throw error instanceof BaseUrlError ? new CliError(`--url ${error.message}`, 2) : error;
  }
}

export async function conformance(options: ConformanceOptions, reporters: ReporterChoice[]): Promise<number> {
  const unknown = unknownSelectors(CATALOGUE, [...options.only, ...options.skip]);
  if (unknown.length > 0) throw new CliError(`no check has the id or tag ${unknown.map((s) => `"${s}"`).join(', ')} (see --list)`, 2);
  if (options.list === true) {
    const profile = options.profile === 'auto' ? 'emulator' : options.profile;
    const selected = selectChecks(CATALOGUE, {
      profile,
      includeSlow: true,
      readOnly: options.readOnly ?? false,
      only: options.only,
      skip: options.skip,
      hasSecondKey: true,
    });
    process.stdout.write(selected.map(({ check }) => `${listLine(check)}\n`).join(''));
    return 0;
  }
  validateReporters(reporters);
  if (options.url === undefined || options.url === '')
    throw new CliError('give the deployment with --url (or SVC_URL), e.g. http://127.0.0.1:4010 or http://127.0.0.1:4010/v1', 2);
  const ownTenants = options.ownTenants === true;
  if (!ownTenants && (options.apiKey === undefined || options.apiKey === ''))
    throw new CliError('give an API key with --api-key (or SVC_API_KEY), or run in tenants of its own with --own-tenants', 2);
  const baseline = options.baseline === undefined ? undefined : await readBaseline(options.baseline);
  const baseUrl = baseUrlOf(options.url);
  // With --own-tenants the run's keys come from the tenants it makes: the user's are never sent.
  const target: Target = ownTenants
    ? { baseUrl, apiKey: '', timeoutMs: options.timeout }
    : { baseUrl, apiKey: options.apiKey!, secondApiKey: options.secondApiKey, timeoutMs: options.timeout };
  let profile;
  try {
    ({ profile } = ownTenants ? await ownTenantsPreflight(target, options.profile) : await preflight(target, options.profile));
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
    hasSecondKey: ownTenants || options.secondApiKey !== undefined,
  });
  if (options.plan === true) {
    process.stdout.write(planText(selected, { baseUrl: target.baseUrl, profile, ownTenants }));
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
      concurrency: options.concurrency,
      bail: options.bail ?? false,
      ownTenants,
      signal: controller.signal,
      ...(live === undefined ? {} : { listener: withBaseline(live.listener, baseline) }),
    });
  } catch (error) {
    if (error instanceof OwnTenantsError) throw new CliError(`configuration: ${error.message}`, 2);
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (baseline !== undefined) report = { ...report, results: applyBaseline(report.results, baseline) };
  if (options.minCoverage !== undefined) report = { ...report, coverage: { ...report.coverage, minimum: options.minCoverage } };
  live?.finish(report);
  for (const reporter of reporters) {
    const text = reporter.name === 'json' ? jsonReport(report) : reporter.name === 'junit' ? junitReport(report) : consoleLines.join('');
    if (reporter.output !== undefined) await writeFile(reporter.output, text);
    else if (reporter.name !== 'console') process.stdout.write(text);
  }
  return exitCodeOf(report);
}
