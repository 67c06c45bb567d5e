/**
 * `svc trigger EVENT`: records one event of any type with sample data on a running emulator,
 * as `stripe trigger` does, and shows where it was delivered (D8, D11).
 */
import chalk from 'chalk';
import type { Command } from 'commander';
import { loadUndici } from '../../undici.js';
import type { z } from '@hono/zod-openapi';
import type { Triggered } from '../../schemas/control.js';
import { EVENT_TYPES, isEventType } from '../../schemas/words.js';
import { control, originOf } from '../control-client.js';
import type { ControlClient } from '../../client/control.js';
import { CliError } from '../output.js';
import { plural, printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

interface TriggerOptions extends ControlCliOptions {
  apiKey?: string;
  tenant?: string;
  data?: string;
}

type TriggerResult = z.infer<typeof Triggered>;

/** The tenant an API key acts for, from the public API (GET /v1/tenant). */
async function tenantOfKey(url: string, apiKey: string): Promise<string> {
  const origin = originOf(url);
  let response;
  try {
    response = await (await loadUndici()).request(`${origin}/v1/tenant`, { headers: { 'x-api-key': apiKey } });
  } catch (error) {
    throw new CliError(
      `cannot reach the emulator at ${origin} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); is \`svc serve\` running there? (set --url)`,
      2,
    );
  }
  const body = (await response.body.json().catch(() => ({}))) as { data?: { id?: string }; error?: string; code?: string };
  if (response.statusCode !== 200 || typeof body.data?.id !== 'string') {
    throw new CliError(`--api-key is not accepted by ${origin}: ${body.error ?? `HTTP ${response.statusCode}`}${body.code ? ` (${body.code})` : ''}`);
  }
  return body.data.id;
}

function parseData(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--data is not valid JSON: ${(error as Error).message}`, 2);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('--data must be a JSON object', 2);
  return value as Record<string, unknown>;
}

function describe(result: TriggerResult): string[] {
  const { event, deliveries } = result;
  const lines = [
    `${chalk.green('Triggered')} ${event.type} ${chalk.dim(event.id)} for tenant ${event.tenantId}: ${plural(deliveries.length, 'delivery', 'deliveries')}`,
  ];
  for (const delivery of deliveries) {
    const last = delivery.attempts.at(-1);
    const outcome = last ? (last.statusCode === null ? (last.error ?? 'no answer') : `HTTP ${last.statusCode}`) : 'not sent yet';
    const status = delivery.status === 'succeeded' ? chalk.green(delivery.status) : chalk.yellow(delivery.status);
    lines.push(`  ${delivery.id}  ${status}  ${outcome}  (webhook ${delivery.webhookId})`);
  }
  if (deliveries.length === 0) lines.push(chalk.dim('  no enabled webhook of this tenant subscribes to it'));
  return lines;
}

export function registerTrigger(program: Command): void {
  withControlOptions(
    program
      .command('trigger <event>')
      .description('Emit a sample event of any type to the webhooks that subscribe to it')
      .option('--api-key <key>', 'act for the tenant of this API key (env SVC_API_KEY)', process.env['SVC_API_KEY'])
      .option('--tenant <id>', 'act for this tenant id (wins over --api-key; default: the first tenant)')
      .option('--data <json>', "the event's data instead of the sample (a JSON object)"),
  )
    .addHelpText(
      'after',
      `
Event types:
  ${EVENT_TYPES.join('\n  ')}

Examples:
  $ svc trigger user.created
  $ svc trigger tx.completed --api-key sk_test_acmeLocalDevKey00000000000000001
  $ svc trigger billing.subscription.updated --tenant ten_globex00000000000001 --json
  $ svc trigger tx.failed --data '{"transactionId":"tx_123","reason":"insufficient funds"}'`,
    )
    .action(async (event: string, options: TriggerOptions) => {
      if (!isEventType(event)) throw new CliError(`"${event}" is not an event type; one of: ${EVENT_TYPES.join(', ')}`, 2);
      const body: Parameters<ControlClient['trigger']>[0] = { type: event };
      if (options.data !== undefined) body.data = parseData(options.data);
      if (options.tenant) body.tenantId = options.tenant;
      else if (options.apiKey) body.tenantId = await tenantOfKey(options.url, options.apiKey);
      const result = await control(options, (emulator) => emulator.trigger(body));
      printResult(options, result, () => describe(result));
    });
}
