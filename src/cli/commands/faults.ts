/** `svc faults add|list|clear`: make a running emulator's next requests fail or stall on purpose (D11). */
import chalk from 'chalk';
import type { Command } from 'commander';
import { parseDuration } from '../../duration.js';
import type { z } from '@hono/zod-openapi';
import type { Fault } from '../../schemas/control.js';
import { control } from '../control-client.js';
import { CliError, parseIntegerOption } from '../output.js';
import { plural, printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

interface AddOptions extends ControlCliOptions {
  path: string;
  method?: string;
  status?: number;
  delay?: string;
  count: number;
  tenant?: string;
}

function describe(fault: z.infer<typeof Fault>): string {
  const answer = fault.status === null ? 'go on as usual' : `answer ${fault.status}`;
  const what = fault.delay === null ? answer : `wait ${fault.delay}, then ${answer}`;
  const whose = fault.tenant === null ? '' : ` for ${fault.tenant}'s requests`;
  return `${fault.id}  ${(fault.method ?? 'ANY').padEnd(6)} ${fault.path.padEnd(24)} ${what}${whose}  ${chalk.dim(`(${fault.remaining} of ${fault.count} left)`)}`;
}

export function registerFaults(program: Command): void {
  const faults = program
    .command('faults')
    .description('Inject faults: the next N matching /v1 requests answer an error status, or wait, or both')
    .addHelpText(
      'after',
      `
Paths are relative to /v1: /users, /users/:id (one segment per parameter), /webhooks/* (the
path and everything below it). A fault meets every caller's requests, or with --tenant only those
that tenant's API key authenticates. Faults live in memory until used up, cleared or the server
stops.

Examples:
  $ svc faults add --path /users --status 503 --count 3
  $ svc faults add --path /* --status 503 --count 3 --tenant ten_acme0000000000000001
  $ svc faults add --method POST --path /webhooks/:id/test --delay 35s
  $ svc faults list --json
  $ svc faults clear`,
    );

  withControlOptions(faults.command('add').description('Add a fault'))
    .addHelpText(
      'after',
      `
Examples:
  $ svc faults add --path /users --status 503 --count 3
  $ svc faults add --method GET --path /users/:id --status 404
  $ svc faults add --path /webhooks/* --delay 2s --count 10
  $ svc faults add --path /* --status 500 --tenant ten_acme0000000000000001`,
    )
    .requiredOption('--path <path>', 'the path it matches, relative to /v1')
    .option('--method <method>', 'the HTTP method it matches (default: any)')
    .option('--status <status>', 'the status to answer, in the error envelope (400–599; default 500 unless --delay)', parseIntegerOption('--status', 400, 599))
    .option('--delay <duration>', 'wait this long (real time, at most 10m) before answering')
    .option('--count <n>', 'how many matching requests it hits', parseIntegerOption('--count', 1, 100_000), 1)
    .option('--tenant <id>', "meet only the requests this tenant's API key authenticates (default: every caller's)")
    .action(async (options: AddOptions) => {
      if (options.delay !== undefined && parseDuration(options.delay) === undefined) {
        throw new CliError(`--delay "${options.delay}" is not a duration such as 500ms, 2s or 1m`, 2);
      }
      const body = {
        path: options.path,
        count: options.count,
        ...(options.method === undefined ? {} : { method: options.method }),
        ...(options.status === undefined ? {} : { status: options.status }),
        ...(options.delay === undefined ? {} : { delay: options.delay }),
        ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
      };
      const fault = await control(options, (emulator) => emulator.faults.add(body));
      printResult(options, fault, () => [`${chalk.green('Added')} ${describe(fault)}`]);
    });

  withControlOptions(faults.command('list').description('List the faults still waiting for requests'))
    .addHelpText('after', '\nExamples:\n  $ svc faults list\n  $ svc faults list --json')
    .action(async (options: ControlCliOptions) => {
      const list = await control(options, (emulator) => emulator.faults.list());
      printResult(options, list, () => (list.length === 0 ? ['No faults.'] : list.map(describe)));
    });

  withControlOptions(faults.command('clear').description('Remove every fault'))
    .addHelpText('after', '\nExamples:\n  $ svc faults clear\n  $ svc faults clear --url http://127.0.0.1:4011')
    .action(async (options: ControlCliOptions) => {
      const result = await control(options, (emulator) => emulator.faults.clear());
      printResult(options, result, () => [`Cleared ${plural(result.cleared, 'fault')}.`]);
    });
}
