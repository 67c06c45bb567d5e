/** `svc webhook …`: the parent of `dlq`, `listen`, `probe` and `verify`. */
import type { Command } from 'commander';
import type { ControlDelivery } from '../../schemas/control.js';
import { control } from '../control-client.js';
import { CliError, printError } from '../output.js';
import { withControlOptions, type ControlCliOptions } from './control-options.js';
import { registerListen } from './webhook-listen.js';
import { registerProbe } from './webhook-probe.js';
import { registerRedeliver } from './webhook-redeliver.js';
import { registerVerify } from './webhook-verify.js';

type DeadDelivery = ControlDelivery;

/** What became of one delivery of `dlq retry`: sent (and its outcome), skipped, or refused. */
type RetryOutcome =
  | { id: string; outcome: 'succeeded' | 'failed'; delivery: DeadDelivery }
  | { id: string; outcome: 'skipped'; reason: string }
  | { id: string; outcome: 'error'; reason: string };

function lastOutcome(delivery: DeadDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return 'no attempt';
  return last.statusCode === null ? (last.error ?? 'no answer') : `HTTP ${last.statusCode}`;
}

/** The dashboard's mark for a delivery whose webhook is gone: it is kept for its history, and cannot be sent. */
const DELETED_MARK = '(webhook deleted: kept for its history, cannot be retried)';

function describe(delivery: DeadDelivery): string {
  const outcome = lastOutcome(delivery);
  const line = `${delivery.id}  ${delivery.status.padEnd(9)} ${delivery.eventType.padEnd(28)} ${delivery.eventId}  ${delivery.attempts.length} attempts, last: ${outcome}`;
  return delivery.webhookDeleted === true ? `${line}  ${DELETED_MARK}` : line;
}

function outcomeLine(result: RetryOutcome): string {
  if (result.outcome === 'skipped') return `${result.id}  skipped: ${result.reason}`;
  if (result.outcome === 'error') return `${result.id}  not retried: ${result.reason}`;
  const where = result.outcome === 'succeeded' ? 'delivered' : `failed again (${lastOutcome(result.delivery)}), back in the DLQ`;
  return `${describe(result.delivery)}  → ${where}`;
}

/** Retries one dead delivery; a refusal (its webhook deleted meanwhile, say) is an outcome, not the end of the run. */
async function retryOne(options: ControlCliOptions, id: string): Promise<RetryOutcome> {
  try {
    const delivery = await control(options, (emulator) => emulator.retryDelivery(id));
    return { id, outcome: delivery.status === 'succeeded' ? 'succeeded' : 'failed', delivery };
  } catch (error) {
    if (error instanceof CliError && error.exitCode === 2) throw error;
    return { id, outcome: 'error', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `dlq retry --all`, as `POST /_emulator/dlq/retry` does it: every dead delivery whose webhook
 * is still there is sent once more, one after another; one whose webhook is gone is skipped
 * and said so. Each outcome is printed as it comes.
 */
async function retryAll(options: ControlCliOptions, print: (result: RetryOutcome) => void): Promise<RetryOutcome[]> {
  const dead = await control(options, (emulator) => emulator.dlq());
  const results: RetryOutcome[] = [];
  for (const delivery of dead) {
    const result: RetryOutcome =
      delivery.webhookDeleted === true
        ? { id: delivery.id, outcome: 'skipped', reason: `its webhook ${delivery.webhookId} was deleted; there is nothing to send it to` }
        : await retryOne(options, delivery.id);
    print(result);
    results.push(result);
  }
  return results;
}

/** Creates the `webhook` command with its `dlq` subcommands; other subcommands register on it. */
export function registerWebhook(program: Command): Command {
  const webhook = program
    .command('webhook')
    .description('Work with webhook deliveries: the DLQ, a local receiver, signature checks, a probe of your own handler')
    .addHelpText(
      'after',
      `
Examples:
  $ svc webhook listen --register --url http://127.0.0.1:4010/v1 --api-key sk_test_…
  $ svc webhook probe --url http://127.0.0.1:3000/webhooks --secret whsec_…
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
      const dead = await control(options, (emulator) => emulator.dlq());
      if (options.json) process.stdout.write(`${JSON.stringify(dead)}\n`);
      else if (dead.length === 0) process.stdout.write('The DLQ is empty.\n');
      else process.stdout.write(`${dead.map(describe).join('\n')}\n`);
    });

  withControlOptions(dlq.command('retry [id]').description('Send a dead delivery once more (same event id)'))
    .addHelpText('after', '\nExamples:\n  $ svc webhook dlq retry dlv_4f8Qm2xZb7LkP1sT9vRa\n  $ svc webhook dlq retry --all --json')
    .option('--all', 'retry every delivery in the DLQ whose webhook is still there (the others are skipped, and said so)')
    .action(async (id: string | undefined, options: ControlCliOptions & { all?: boolean }) => {
      if (!options.all && !id) {
        process.stdout.write('Name a delivery id, or pass --all.\n');
        process.exitCode = 2;
        return;
      }
      const print = (result: RetryOutcome): void => {
        if (!options.json) process.stdout.write(`${outcomeLine(result)}\n`);
      };
      let results: RetryOutcome[];
      if (options.all) results = await retryAll(options, print);
      else {
        // One named delivery: a refusal (its webhook deleted, not dead) is the command's error.
        const delivery = await control(options, (emulator) => emulator.retryDelivery(id!));
        results = [{ id: id!, outcome: delivery.status === 'succeeded' ? 'succeeded' : 'failed', delivery }];
        print(results[0]!);
      }
      if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
      const count = (outcome: RetryOutcome['outcome']) => results.filter((r) => r.outcome === outcome).length;
      if (options.all && !options.json) {
        process.stdout.write(
          results.length === 0
            ? 'The DLQ is empty.\n'
            : `Retried ${count('succeeded') + count('failed')}: ${count('succeeded')} delivered, ${count('failed')} failed again; skipped ${count('skipped')} whose webhook was deleted${count('error') > 0 ? `; ${count('error')} not retried` : ''}.\n`,
        );
      }
      for (const result of results) {
        if (result.outcome === 'failed') printError(`the retry of ${result.id} failed again (${lastOutcome(result.delivery)}): it is back in the DLQ`);
        if (result.outcome === 'error') printError(`${result.id} was not retried: ${result.reason}`);
      }
      // Skipped deliveries cannot be sent by anyone: they do not make the command fail.
      if (count('failed') + count('error') > 0) process.exitCode = 1;
    });
  registerListen(webhook);
  registerProbe(webhook);
  registerRedeliver(webhook);
  registerVerify(webhook);
  return webhook;
}
