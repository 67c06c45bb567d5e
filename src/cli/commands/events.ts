/** `svc events`: a running emulator's event log, newest first (D8, D11). */
import chalk from 'chalk';
import type { Command } from 'commander';
import type { EventRecord } from '../../store/records.js';
import { controlRequest } from '../control-client.js';
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
      const query = new URLSearchParams({ limit: String(options.limit) });
      if (options.type) query.set('type', options.type);
      if (options.tenant) query.set('tenant', options.tenant);
      const events = await controlRequest<EventRecord[]>(options, 'GET', `/events?${query.toString()}`);
      printResult(options, events, () =>
        events.length === 0
          ? ['No events.']
          : events.map((event) => `${event.created_at}  ${event.type.padEnd(28)} ${event.id}  ${chalk.dim(event.tenantId)}  ${JSON.stringify(event.data)}`),
      );
    });
}
