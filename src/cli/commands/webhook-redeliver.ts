/** `svc webhook redeliver`: send an event again to its webhooks, by event id or every event since a time. */
import type { Command } from 'commander';
import { control } from '../control-client.js';
import { CliError } from '../output.js';
import { plural, printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

interface RedeliverOptions extends ControlCliOptions {
  since?: string;
  tenant?: string;
}

export function registerRedeliver(webhook: Command): void {
  withControlOptions(webhook.command('redeliver [eventId]').description('Send an event again (same event id) to its webhooks, or every event since a time'))
    .option('--since <time>', 'every event recorded since this emulated time: ISO, or a duration back from now such as 10m')
    .option('--tenant <id>', 'only events of this tenant')
    .addHelpText(
      'after',
      `
A delivery that succeeded or is dead gets one more attempt, signed anew, with the same
X-Service-Event-Id; one still pending or failed (its retry is scheduled) is left alone.

Examples:
  $ svc webhook redeliver evt_4f8Qm2xZb7LkP1sT9vRa
  $ svc webhook redeliver --since 10m --tenant ten_acme0000000000000001
  $ svc webhook redeliver --since 2026-11-21T10:00:00Z --json`,
    )
    .action(async (eventId: string | undefined, options: RedeliverOptions) => {
      if ((eventId === undefined) === (options.since === undefined)) throw new CliError('name one event id, or give --since (not both)', 2);
      const body = {
        ...(eventId === undefined ? {} : { eventId }),
        ...(options.since === undefined ? {} : { since: options.since }),
        ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
      };
      const result = await control(options, (emulator) => emulator.redeliver(body));
      printResult(options, result, () => [
        `Redelivered ${plural(result.redelivered.length, 'delivery', 'deliveries')} of ${plural(result.events, 'event')}`,
        ...result.redelivered.map(
          (d) => `  ${d.id}  ${d.status.padEnd(9)} ${d.eventType.padEnd(28)} ${d.eventId}  HTTP ${d.attempts.at(-1)?.statusCode ?? '-'}`,
        ),
        ...result.skipped.map((d) => `  ${d.id}  skipped: ${d.reason}`),
      ]);
      if (result.redelivered.some((delivery) => delivery.status !== 'succeeded')) process.exitCode = 1;
    });
}
