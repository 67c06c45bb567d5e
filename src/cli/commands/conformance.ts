/**
 * `svc conformance`: its options and help. The suite itself (checks, runner, reporters) is
 * loaded only when the command runs, so that it costs nothing to `svc serve`'s start.
 */
import { Option, type Command } from 'commander';
import { parseDuration } from '../../duration.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../conformance/schedule.js';
import { CliError, parseIntegerOption, splitList } from '../output.js';
// Types only: the run itself is imported when the command runs, not when the CLI starts.
import { withReporterOptions, type ReporterChoice } from '../reporter-options.js';
import type { ConformanceOptions } from './conformance-run.js';

function parseTimeout(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : parseDuration(text);
  if (ms === undefined || ms <= 0) throw new CliError(`--timeout must be a duration such as 30s or a number of seconds, got "${text}"`, 2);
  return ms;
}

export function registerConformance(program: Command): void {
  // Reporters and their --output files pair up in the order given on the command line.
  const reporters: ReporterChoice[] = [];
  withReporterOptions(
    program
      .command('conformance')
      .description("Check a deployment against the service's API (docs/service-api.md) and, where /_emulator answers, svc's design (docs/design.md)")
      .option('--url <url>', 'the deployment: its base URL (…/v1), or its origin, to which /v1 is added (env SVC_URL)', process.env['SVC_URL'])
      .option('--api-key <key>', 'API key of the tenant to test (env SVC_API_KEY)', process.env['SVC_API_KEY'])
      .option('--second-api-key <key>', 'a key of another tenant, for isolation checks (env SVC_SECOND_API_KEY)', process.env['SVC_SECOND_API_KEY'])
      .option('--only <ids|tags>', 'run only checks matching these ids, id prefixes or tags (comma-separated, repeatable)', splitList, [])
      .option('--skip <ids|tags>', 'leave out checks matching these ids, id prefixes or tags', splitList, [])
      .option(
        '--profile <profile>',
        'spec, emulator or auto (emulator checks where /_emulator answers)',
        (value) => {
          if (value !== 'spec' && value !== 'emulator' && value !== 'auto') throw new CliError(`--profile must be spec, emulator or auto, got "${value}"`, 2);
          return value;
        },
        'auto',
      )
      .option(
        '--own-tenants',
        "work in two tenants of the run's own, made through svc's control plane and removed at the end (after failures and Ctrl-C too): the tenants of --api-key and --second-api-key get nothing, and neither key is needed. The emulator clock is not a tenant's: the run still moves it for all",
      )
      .option('--read-only', 'run only checks that create nothing')
      .option('--receiver-host <host>', 'address of the suite webhook receiver, reachable from the target', '127.0.0.1')
      .option('--receiver-port <port>', 'port of the receiver (0 picks a free one)', parseIntegerOption('--receiver-port', 0, 65535), 0)
      .addOption(new Option('--timeout <duration>', 'how long one call or delivery may take').argParser(parseTimeout).default(30_000, '30s'))
      .option(
        '--concurrency <n>',
        `how many checks run at once, 1 to ${MAX_CONCURRENCY} (1: one after another); checks that would disturb each other never overlap`,
        parseIntegerOption('--concurrency', 1, MAX_CONCURRENCY),
        DEFAULT_CONCURRENCY,
      )
      .option('--bail', 'stop starting checks at the first failure (those running end; cleanup still runs)'),
    reporters,
  )
    .option('--list', 'list the checks (id, tags, description, spec line) and exit; nothing runs')
    .option('--plan', 'show what a run would create and remove, without sending a write')
    .option('--baseline <file>', 'known failures, each with a reason (JSON: {"entries":[{"id","reason"}]})')
    .option('--include-slow', 'also run checks that wait on real time (the first retry after 1 minute)')
    .option(
      '--min-coverage <percent>',
      "fail the run (exit 1) when it exercised less than this share of the (operation, status) pairs the target's OpenAPI document lists, 0 to 100",
      parseIntegerOption('--min-coverage', 0, 100),
    )
    .option('--verbose', 'show notes of passing checks')
    .addHelpText(
      'after',
      `
Exit codes: 0 every selected check passed, 1 failures (or coverage below --min-coverage), 2 bad usage / unreachable target / key rejected, 130 interrupted.
Coverage: every report gives, per operation of the target's document, the statuses it lists and those the run saw.
Its % is exercised (operation, status) pairs / documented pairs: a status the run saw but the document does not list counts for nothing.
Each check names where its rule comes from: "part N" is a part of docs/service-api.md, "Dn" a rule of docs/design.md.

Examples:
  $ svc conformance --url http://127.0.0.1:4010 --api-key sk_test_acmeLocalDevKey00000000000000001
  $ svc conformance --url $URL --api-key $KEY --second-api-key $KEY2 --profile spec --include-slow
  $ svc conformance --url $URL --api-key $KEY --reporter console --reporter junit --output conformance.xml
  $ svc conformance --url $URL --api-key $KEY --concurrency 1   # one check at a time, in catalogue order
  $ svc conformance --url http://127.0.0.1:4010 --own-tenants     # in throwaway tenants: yours get nothing (the clock still moves)
  $ svc conformance --only webhooks --skip webhooks.retry-schedule --bail
  $ svc conformance --list | grep webhooks`,
    )
    .action(async (options: ConformanceOptions) => {
      const { conformance } = await import('./conformance-run.js');
      process.exitCode = await conformance(options, reporters.length > 0 ? reporters : [{ name: 'console' }]);
    });
}
