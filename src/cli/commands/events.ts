/** `svc events`: a running emulator's event log, newest first (D8, D11). */
import chalk from 'chalk';
import type { Command } from 'commander';
import type { EventType } from '../../schemas/words.js';
import { control } from '../control-client.js';
import { parseIntegerOption } from '../output.js';
import { printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

interface EventsOptions extends ControlCliOptions {
  type?: string;
  tenant?: string;
  limit: number;
}

export function registerEvents(program: Command): void {
  withControlOptions(program.command('events').description('Show the event log, newest first'))
    .option('--type <type>', 'only events of this type, such as user.created')
    .option('--tenant <id>', 'only events of this tenant')
    .option('--limit <n>', 'at most this many (1–1000)', parseIntegerOption('--limit', 1, 1000), 20)
    .addHelpText(
      'after',
      `
Examples:
  $ svc events
  $ svc events --type user.created --limit 5
  $ svc events --tenant ten_acme0000000000000001 --json | jq '.[].data'`,
    )
    .action(async (options: EventsOptions) => {
      // --type goes as given: the server checks it, and its refusal names the known types.
      const type = (options.type || undefined) as EventType | undefined;
      const events = await control(options, (emulator) => emulator.events({ limit: options.limit, type, tenant: options.tenant || undefined }));
      printResult(options, events, () =>
        events.length === 0
          ? ['No events.']
          : events.map((event) => `${event.created_at}  ${event.type.padEnd(28)} ${event.id}  ${chalk.dim(event.tenantId)}  ${JSON.stringify(event.data)}`),
      );
    });
}
