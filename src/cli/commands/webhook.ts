/** `svc webhook …`: the parent of `dlq`, `listen` and `verify`. */
import type { Command } from 'commander';
import type { DeliveryView } from '../../schemas/webhooks.js';
import { controlRequest } from '../control-client.js';
import { printError } from '../output.js';
import { withControlOptions, type ControlCliOptions } from './control-options.js';
import { registerListen } from './webhook-listen.js';
import { registerRedeliver } from './webhook-redeliver.js';
import { registerVerify } from './webhook-verify.js';

type DeadDelivery = DeliveryView & { tenantId: string };

function lastOutcome(delivery: DeadDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return 'no attempt';
  return last.statusCode === null ? (last.error ?? 'no answer') : `HTTP ${last.statusCode}`;
}

function describe(delivery: DeadDelivery): string {
  const outcome = lastOutcome(delivery);
  return `${delivery.id}  ${delivery.status.padEnd(9)} ${delivery.eventType.padEnd(28)} ${delivery.eventId}  ${delivery.attempts.length} attempts, last: ${outcome}`;
}

/** Creates the `webhook` command with its `dlq` subcommands; other subcommands register on it. */
export function registerWebhook(program: Command): Command {
  const webhook = program
    .command('webhook')
    .description('Work with webhook deliveries: the DLQ, a local receiver, signature checks')
    .addHelpText(
      'after',
      `
Examples:
  $ svc webhook listen --register --url http://127.0.0.1:4010/v1 --api-key sk_test_…
  $ svc webhook verify --secret whsec_… --timestamp 1763719200 --signature sha256=5f2c… --event-id evt_… --body-file body.json
  $ svc webhook dlq list`,
    );
  const dlq = webhook
    .command('dlq')
    .description('List and retry dead deliveries (those whose every retry failed)')
    .addHelpText(
      'after',
      `
Examples:
  $ svc webhook dlq list
  $ svc webhook dlq retry dlv_4f8Qm2xZb7LkP1sT9vRa
  $ svc webhook dlq retry --all`,
    );

  withControlOptions(dlq.command('list').description('List the DLQ'))
    .addHelpText('after', '\nExamples:\n  $ svc webhook dlq list\n  $ svc webhook dlq list --json --url http://127.0.0.1:4400')
    .action(async (options: ControlCliOptions) => {
      const dead = await controlRequest<DeadDelivery[]>(options, 'GET', '/dlq');
      if (options.json) process.stdout.write(`${JSON.stringify(dead)}\n`);
      else if (dead.length === 0) process.stdout.write('The DLQ is empty.\n');
      else process.stdout.write(`${dead.map(describe).join('\n')}\n`);
    });

  withControlOptions(dlq.command('retry [id]').description('Send a dead delivery once more (same event id)'))
    .addHelpText('after', '\nExamples:\n  $ svc webhook dlq retry dlv_4f8Qm2xZb7LkP1sT9vRa\n  $ svc webhook dlq retry --all --json')
    .option('--all', 'retry every delivery in the DLQ')
    .action(async (id: string | undefined, options: ControlCliOptions & { all?: boolean }) => {
      const ids = options.all ? (await controlRequest<DeadDelivery[]>(options, 'GET', '/dlq')).map((d) => d.id) : id ? [id] : [];
      if (ids.length === 0) {
        process.stdout.write(options.all ? 'The DLQ is empty.\n' : 'Name a delivery id, or pass --all.\n');
        if (!options.all) process.exitCode = 2;
        return;
      }
      const results: DeadDelivery[] = [];
      for (const deliveryId of ids) {
        results.push(await controlRequest<DeadDelivery>(options, 'POST', `/deliveries/${encodeURIComponent(deliveryId)}/retry`));
      }
      if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
      else process.stdout.write(`${results.map(describe).join('\n')}\n`);
      const failed = results.filter((delivery) => delivery.status !== 'succeeded');
      for (const delivery of failed) {
        const where = delivery.status === 'dead' ? 'it is back in the DLQ' : `it is ${delivery.status}`;
        printError(`the retry of ${delivery.id} failed again (${lastOutcome(delivery)}): ${where}`);
      }
      if (failed.length > 0) process.exitCode = 1;
    });
  registerListen(webhook);
  registerRedeliver(webhook);
  registerVerify(webhook);
  return webhook;
}
