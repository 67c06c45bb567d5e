/**
 * `svc webhook probe`: sends the user's own webhook handler real signed deliveries, good and
 * bad, and grades each answer (docs/listen.md#test-your-own-handler). The cases, the run and
 * the reports are in src/probe/, loaded when the command runs; this file reads the flags,
 * prints, and sets the exit code: 0 every required case passed, 1 one failed, 2 bad usage or
 * a handler that cannot be reached at all.
 */
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { apiBaseUrl, BaseUrlError } from '../../base-url.js';
import { parseDuration } from '../../duration.js';
import { DEFAULT_API_VERSION } from '../../services/tenant.js';
import { DEFAULT_ORIGIN } from '../control-client.js';
import { CliError, splitList } from '../output.js';
import type { CaseResult } from '../../probe/types.js';
import { validateReporters, withReporterOptions, type ReporterChoice } from '../reporter-options.js';

/** The spec's answer limit (part 6), the most --timeout may be. */
const SPEC_LIMIT_MS = 30_000;

interface ProbeCliOptions {
  url?: string;
  secret?: string;
  webhook?: string;
  apiKey?: string;
  emulatorUrl: string;
  timeout: number;
  only: string[];
  skip: string[];
  list?: boolean;
  verbose?: boolean;
}

function parseTimeout(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : parseDuration(text);
  if (ms === undefined || ms <= 0 || ms > SPEC_LIMIT_MS)
    throw new CliError(`--timeout must be a duration up to the spec's 30s (such as 30s or 500ms), got "${text}"`, 2);
  return ms;
}

function handlerUrl(text: string, flag: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new CliError(`${flag} "${text}" is not an http(s) URL such as http://127.0.0.1:3000/webhooks`, 2);
  return text;
}

/** The handler's URL and the payloads' api_version: from the flags, or from the webhook at the emulator. */
async function target(options: ProbeCliOptions, say: (line: string) => void): Promise<{ url: string; apiVersion: string }> {
  if (options.webhook === undefined) {
    if (options.url === undefined) throw new CliError("give the handler's URL with --url, or --webhook ID --api-key KEY to take a registered webhook's", 2);
    return { url: handlerUrl(options.url, '--url'), apiVersion: DEFAULT_API_VERSION };
  }
  if (options.url !== undefined)
    throw new CliError("with --webhook the handler's URL is the webhook's; --url names no emulator here: use --emulator-url (or SVC_URL)", 2);
  if (options.apiKey === undefined || options.apiKey === '') throw new CliError('--webhook needs --api-key (or SVC_API_KEY) of its tenant', 2);
  let baseUrl: string;
  try {
    baseUrl = apiBaseUrl(options.emulatorUrl);
  } catch (error) {
    throw error instanceof BaseUrlError ? new CliError(`--emulator-url ${error.message}`, 2) : error;
  }
  const { webhookSource, WebhookSourceError } = await import('../../probe/webhook-source.js');
  try {
    const source = await webhookSource({ baseUrl, apiKey: options.apiKey, webhookId: options.webhook });
    say(
      `Webhook ${source.webhookId} at ${baseUrl}: ${source.url}, events ${source.events.join(',')}${source.enabled ? '' : ' (disabled: the emulator sends it nothing)'}`,
    );
    return { url: handlerUrl(source.url, `the URL of ${source.webhookId}`), apiVersion: source.apiVersion };
  } catch (error) {
    throw error instanceof WebhookSourceError ? new CliError(error.message) : error;
  }
}

async function probe(options: ProbeCliOptions, reporters: ReporterChoice[]): Promise<number> {
  const { PROBE_CASES } = await import('../../probe/cases.js');
  const { runProbe, selectCases, unknownSelectors, CASE_TIMEOUT_MS, PROBE_CONCURRENCY } = await import('../../probe/run.js');
  const report = await import('../../probe/report.js');
  const unknown = unknownSelectors([...options.only, ...options.skip]);
  if (unknown.length > 0)
    throw new CliError(
      `no case is named ${unknown.map((s) => `"${s}"`).join(', ')}; the cases are ${PROBE_CASES.map((c) => c.id).join(', ')} (or a group: event, refuse, …)`,
      2,
    );
  if (options.list === true) {
    for (const c of selectCases(options.only, options.skip))
      process.stdout.write(`${c.id.padEnd(34)} ${c.expect === 'accept' ? '2xx    ' : 'refused'}  ${c.summary}\n`);
    return 0;
  }
  validateReporters(reporters);
  if (options.secret === undefined || options.secret === '') {
    throw new CliError(
      options.webhook === undefined
        ? "give the handler's signing secret with --secret whsec_… (or SVC_WEBHOOK_SECRET)"
        : "give the webhook's secret with --secret whsec_… (or SVC_WEBHOOK_SECRET): the API answers it only when the webhook is made or its secret rotated, so svc cannot read it",
      2,
    );
  }

  const consoleChoice = reporters.find((r) => r.name === 'console');
  const consoleText: string[] = [];
  const write =
    consoleChoice === undefined
      ? () => undefined
      : consoleChoice.output === undefined
        ? (text: string) => void process.stdout.write(text)
        : (text: string) => void consoleText.push(text);
  const { url, apiVersion } = await target(options, (line) => write(`${line}\n`));
  const selected = selectCases(options.only, options.skip);
  write(report.headerText(url, selected.length, options.timeout, Math.min(CASE_TIMEOUT_MS, options.timeout), PROBE_CONCURRENCY));

  // Cases finish in any order and are shown in catalogue order, each as soon as those before it are done;
  // none is shown until one delivery has reached the handler, so an unreachable URL prints one error line.
  const done = new Map<string, CaseResult>();
  let shown = 0;
  let reached = false;
  const flush = (): void => {
    for (let next = done.get(selected[shown]?.id ?? ''); next !== undefined; next = done.get(selected[shown]?.id ?? '')) {
      write(`${report.caseText(next, { verbose: options.verbose ?? false })}\n`);
      shown++;
    }
  };
  const result = await runProbe({
    url,
    secret: options.secret,
    apiVersion,
    timeoutMs: options.timeout,
    only: options.only,
    skip: options.skip,
    onResult: (caseResult) => {
      done.set(caseResult.id, caseResult);
      reached ||= caseResult.deliveries.some((d) => d.answer.failure !== 'connection');
      if (reached) flush();
    },
  });
  if (result.unreachable !== null) throw new CliError(`cannot reach ${url}: ${result.unreachable}`, 2);
  flush();
  write(report.summaryText(result));
  for (const reporter of reporters) {
    const text = reporter.name === 'json' ? report.jsonReport(result) : reporter.name === 'junit' ? report.junitReport(result) : consoleText.join('');
    if (reporter.output !== undefined) await writeFile(reporter.output, text);
    else if (reporter.name !== 'console') process.stdout.write(text);
  }
  return result.exitCode;
}

/** Adds `svc webhook probe` to the `webhook` command. */
export function registerProbe(webhook: Command): void {
  const reporters: ReporterChoice[] = [];
  withReporterOptions(
    webhook
      .command('probe')
      .description('Grade your own webhook handler: send it real signed deliveries, good and bad, and check each answer')
      .option('--url <url>', "your handler's URL, where deliveries are POSTed")
      .option('--secret <secret>', "the handler's signing secret (env SVC_WEBHOOK_SECRET)", process.env['SVC_WEBHOOK_SECRET'])
      .option('--webhook <id>', 'instead of --url: probe the URL of this webhook, registered at --emulator-url (give its secret with --secret)')
      .option('--api-key <key>', 'with --webhook: an API key of its tenant (env SVC_API_KEY)', process.env['SVC_API_KEY'])
      .option('--emulator-url <url>', 'with --webhook: the emulator or deployment holding it (env SVC_URL)', process.env['SVC_URL'] ?? DEFAULT_ORIGIN)
      .addOption(
        new Option('--timeout <duration>', 'the answer limit of the timing case (every other case waits at most 10 s); lower it only to try the probe')
          .argParser(parseTimeout)
          .default(SPEC_LIMIT_MS, "30s, the spec's"),
      )
      .option('--only <ids>', 'run only these cases or groups (comma-separated, repeatable; see --list)', splitList, [])
      .option('--skip <ids>', 'leave out these cases or groups', splitList, []),
    reporters,
  )
    .option('--list', 'list the cases (id, expected answer, what is sent) and exit')
    .option('--verbose', 'show what was sent, the answer, why and the fix for passing cases too')
    .addHelpText(
      'after',
      `
Valid deliveries of every event type, in other valid JSON forms, repeated and out of order must be
answered 2xx; unsigned, wrongly signed, stale or altered ones must be refused (any other status). A
redirect is not a 2xx. One case waits the spec's 30 s for an answer, the others 10 s each, ten at a time:
a run ends within a minute. Exit codes: 0 every required case passed, 1 one failed, 2 bad usage or the
handler cannot be reached. Cases and fixes: docs/listen.md#test-your-own-handler

With --webhook, --url is not the emulator: name it with --emulator-url (or SVC_URL). The API answers a
webhook's secret only when it is made or rotated, so give it with --secret.

Examples:
  $ svc webhook probe --url http://127.0.0.1:3000/webhooks --secret whsec_…
  $ svc webhook probe --webhook whk_… --api-key sk_test_… --secret whsec_… --emulator-url http://127.0.0.1:4010
  $ svc webhook probe --url $HANDLER --secret $SECRET --reporter console --reporter junit --output probe.xml
  $ svc webhook probe --url $HANDLER --secret $SECRET --only refuse --skip refuse.future-timestamp
  $ svc webhook probe --list`,
    )
    .action(async (options: ProbeCliOptions) => {
      process.exitCode = await probe(options, reporters.length > 0 ? reporters : [{ name: 'console' }]);
    });
}
