/**
 * `svc webhook listen`: a local receiver that checks every delivery (spec part 6, D8),
 * shows it, can fail on purpose to exercise retries, can forward to the user's own handler,
 * and can register itself at a deployment for as long as it runs.
 */
import { randomInt } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import chalk from 'chalk';
import type { Command } from 'commander';
import { apiBaseUrl, BaseUrlError } from '../../base-url.js';
import { parseDuration } from '../../duration.js';
import { formatDelivery, formatSummary } from '../../receiver/format.js';
import { parseRespond } from '../../receiver/policy.js';
import { createReceiver, DEFAULT_RECEIVER_HOST, DEFAULT_RECEIVER_PORT, type Receiver } from '../../receiver/receiver.js';
import { registerWebhook, RegistrationError, unregisterWebhook, type Registration } from '../../receiver/register.js';
import type { Respond } from '../../receiver/types.js';
import { SIGNATURE_TOLERANCE_SECONDS } from '../../webhooks/signature.js';
import { CliError, parseIntegerOption } from '../output.js';

interface ListenOptions {
  port: number;
  host: string;
  secret?: string;
  tolerance: number;
  register?: boolean;
  url?: string;
  apiKey?: string;
  events?: string[];
  respond?: Respond;
  failFirst?: number;
  failRate?: number;
  failWith?: Respond;
  seed?: number;
  forwardTo?: string;
  json?: boolean;
  printBody?: boolean;
  log?: string;
}

/** The body as JSON when it parses (so `--json` lines nest it), else as the text it was. */
function bodyValue(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `--print-body` on the screen: the payload, pretty-printed and indented under its delivery's line. */
function bodyLines(body: Buffer): string {
  const value = bodyValue(body);
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return chalk.dim(
    text
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n'),
  );
}

/** `--tolerance 300` (seconds) or a duration such as `5m`. */
export function parseTolerance(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : parseDuration(text);
  if (ms === undefined || ms < 1000 || ms % 1000 !== 0) throw new CliError(`--tolerance must be whole seconds (300) or a duration (5m), got "${text}"`, 2);
  return ms / 1000;
}

function respondOption(name: string) {
  return (text: string): Respond => {
    const respond = parseRespond(text);
    if (!respond) throw new CliError(`${name} must be an HTTP status from 200 to 599 or "timeout", got "${text}"`, 2);
    return respond;
  };
}

function parseRate(text: string): number {
  const rate = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || rate < 0 || rate > 1) throw new CliError(`--fail-rate must be a probability from 0 to 1, such as 0.3, got "${text}"`, 2);
  return rate;
}

function parseForwardTo(text: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new CliError(`--forward-to "${text}" is not an http(s) URL such as http://127.0.0.1:3000/webhooks`, 2);
  return text;
}

function parseEvents(text: string): string[] {
  const events = text
    .split(',')
    .map((event) => event.trim())
    .filter(Boolean);
  if (events.length === 0) throw new CliError('--events needs at least one event type, such as user.created,tx.completed or *', 2);
  return events;
}

function respondText(respond: Respond): string {
  return respond.kind === 'timeout' ? 'no answer (held until the sender times out)' : String(respond.status);
}

function answersLine(options: ListenOptions): string {
  const parts: string[] = [];
  const failWith = respondText(options.failWith ?? { kind: 'status', status: 500 });
  if (options.failFirst) parts.push(`the first ${options.failFirst} valid: ${failWith}`);
  if (options.failRate)
    parts.push(`${Math.round(options.failRate * 100)}% at random: ${failWith}${options.seed === undefined ? '' : ` (seed ${options.seed})`}`);
  const rest = options.respond ? respondText(options.respond) : options.forwardTo ? "your handler's status" : '200';
  parts.push(`${parts.length > 0 ? 'others' : 'valid'}: ${rest}`);
  return `${parts.join('; ')}; invalid: 400; duplicates: 200`;
}

function banner(receiver: Receiver, options: ListenOptions, registration: Registration | null): string {
  const lines = [`${chalk.bold('svc webhook listen')} ready`, `  URL        ${chalk.cyan(receiver.url)}  ${chalk.dim('(any path)')}`];
  if (registration) {
    lines.push(
      `  Webhook    ${registration.webhookId} at ${registration.apiBase}, events ${(options.events ?? ['*']).join(',')}  ${chalk.dim('(deleted on exit)')}`,
    );
    lines.push(`  Secret     ${registration.secret}`);
  } else {
    lines.push(`  Secret     ${options.secret!.slice(0, 10)}…  ${chalk.dim('(from --secret or SVC_WEBHOOK_SECRET)')}`);
  }
  lines.push(`  Checks     signature, freshness (${options.tolerance} s), event id, duplicates, body shape`);
  lines.push(`  Answers    ${answersLine(options)}`);
  if (options.forwardTo) lines.push(`  Forward    ${options.forwardTo}`);
  if (options.log) lines.push(`  Log        ${options.log}`);
  lines.push(chalk.dim('Ctrl-C stops and prints a summary.'));
  return lines.join('\n');
}

function checkUsage(options: ListenOptions): void {
  if (options.register) {
    if (options.secret && options.secret !== process.env['SVC_WEBHOOK_SECRET'])
      throw new CliError('--register takes the secret from the new webhook; leave out --secret', 2);
    if (!options.url) throw new CliError("--register needs --url (or SVC_URL), the deployment's base URL such as http://127.0.0.1:4010/v1", 2);
    if (!options.apiKey) throw new CliError('--register needs --api-key (or SVC_API_KEY)', 2);
  } else if (!options.secret) {
    throw new CliError('give --secret whsec_… (or SVC_WEBHOOK_SECRET), or --register --url … --api-key … to get one', 2);
  }
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      // A second Ctrl-C while shutting down means "now".
      process.once(signal, () => process.exit(130));
      resolve(signal);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

async function listen(given: ListenOptions): Promise<void> {
  checkUsage(given);
  // A --fail-rate run always has a seed, shown in the banner, so it can be repeated with --seed.
  const options = given.failRate && given.seed === undefined ? { ...given, seed: randomInt(2 ** 32 - 1) } : given;
  const apiBase = options.register ? wrap(() => apiBaseUrl(options.url!)) : null;
  let logFd: number | null = null;
  if (options.log) {
    try {
      logFd = openSync(options.log, 'a');
    } catch (error) {
      throw new CliError(`cannot open --log ${options.log}: ${(error as Error).message}`, 2);
    }
  }
  const out = (line: string): void => void process.stdout.write(`${line}\n`);

  let receiver: Receiver;
  try {
    receiver = await createReceiver({
      secret: options.register ? null : options.secret!,
      toleranceSeconds: options.tolerance,
      host: options.host,
      port: options.port,
      ...(options.respond ? { respond: options.respond } : {}),
      ...(options.failFirst === undefined ? {} : { failFirst: options.failFirst }),
      ...(options.failRate === undefined ? {} : { failRate: options.failRate }),
      ...(options.failWith ? { failWith: options.failWith } : {}),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.forwardTo ? { forwardTo: options.forwardTo } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${options.port} on ${options.host} is in use; pick another with --port (0 = a free one)`, 2);
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`, 2);
  }

  let registration: Registration | null = null;
  if (apiBase !== null) {
    try {
      registration = await registerWebhook({ apiBase, apiKey: options.apiKey!, url: receiver.url, events: options.events ?? ['*'] });
    } catch (error) {
      await receiver.close();
      throw error instanceof RegistrationError ? new CliError(error.message) : error;
    }
    receiver.setSecret(registration.secret);
  }

  receiver.onDelivery((delivery, body) => {
    const line = JSON.stringify(delivery);
    if (options.json) out(options.printBody ? JSON.stringify({ ...delivery, body: bodyValue(body) }) : line);
    else out(options.printBody ? `${formatDelivery(delivery)}\n${bodyLines(body)}` : formatDelivery(delivery));
    if (logFd !== null) writeSync(logFd, `${line}\n`);
  });
  if (options.json) {
    out(
      JSON.stringify({
        kind: 'listening',
        url: receiver.url,
        webhookId: registration?.webhookId ?? null,
        secret: registration?.secret ?? null,
        toleranceSeconds: options.tolerance,
        seed: options.seed ?? null,
      }),
    );
  } else out(banner(receiver, options, registration));

  const signal = await waitForSignal();
  if (!options.json) process.stderr.write(chalk.dim(`\n${signal}: stopping\n`));
  await receiver.close();
  if (registration) {
    try {
      const outcome = await unregisterWebhook(registration);
      if (!options.json) {
        out(
          chalk.dim(
            outcome === 'deleted'
              ? `Deleted webhook ${registration.webhookId}.`
              : `Webhook ${registration.webhookId} was already gone (404: deleted meanwhile, or the emulator was reset); nothing to delete.`,
          ),
        );
      }
    } catch (error) {
      process.stderr.write(`${chalk.yellow('warning:')} could not delete webhook ${registration.webhookId}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
  if (logFd !== null) closeSync(logFd);
  out(options.json ? JSON.stringify(receiver.summary()) : formatSummary(receiver.summary()));
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof BaseUrlError ? new CliError(`--url ${error.message}`, 2) : error;
  }
}

/** Adds `svc webhook listen` to the `webhook` command. */
export function registerListen(webhook: Command): void {
  webhook
    .command('listen')
    .description('Receive webhook deliveries locally and check each: signature, freshness, event id, duplicates, body shape')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parseIntegerOption('--port', 0, 65535), DEFAULT_RECEIVER_PORT)
    .option('--host <host>', 'address to bind', DEFAULT_RECEIVER_HOST)
    .option('--secret <secret>', "the webhook's signing secret (env SVC_WEBHOOK_SECRET)", process.env['SVC_WEBHOOK_SECRET'])
    .option('--tolerance <seconds>', 'oldest signature timestamp accepted, in seconds or as 5m', parseTolerance, SIGNATURE_TOLERANCE_SECONDS)
    .option('--register', 'register this receiver as a webhook at --url for as long as it runs (its secret is used)')
    .option('--url <base>', "with --register: the deployment's base URL (env SVC_URL)", process.env['SVC_URL'])
    .option('--api-key <key>', 'with --register: an API key (env SVC_API_KEY)', process.env['SVC_API_KEY'])
    .option('--events <types>', 'with --register: event types, comma-separated (default: * for all)', parseEvents)
    .option('--respond <status|timeout>', 'answer valid deliveries with this status, or never answer', respondOption('--respond'))
    .option('--fail-first <n>', 'fail the first n valid deliveries on purpose', parseIntegerOption('--fail-first', 0, 1_000_000))
    .option('--fail-rate <p>', 'fail each valid delivery on purpose with probability p (0..1)', parseRate)
    .option('--fail-with <status|timeout>', 'how --fail-first and --fail-rate fail (default 500)', respondOption('--fail-with'))
    .option('--seed <n>', 'seed for --fail-rate, to repeat a run', parseIntegerOption('--seed', 0, 4_294_967_295))
    .option('--forward-to <url>', 'relay each valid, new delivery (headers and raw body intact) to your handler; its status is the answer')
    .option('--json', 'print one JSON line per delivery (and a listening and a summary line)')
    .option('--print-body', 'show each delivery\'s payload: under its line, or as a "body" field with --json')
    .option('--log <file>', 'append one JSON line per delivery to this file')
    .addHelpText(
      'after',
      `
A delivery failing any check is answered 400 with the reason. A valid one is processed once per
event id: a repeat of an event already answered 2xx is answered 200 and flagged as a duplicate; a
retry of one that was failed (on purpose or by your handler) is processed again.

Examples:
  $ svc webhook listen --register --url http://127.0.0.1:4010/v1 --api-key sk_test_…
  $ svc webhook listen --secret whsec_… --forward-to http://127.0.0.1:3000/webhooks
  $ svc webhook listen --secret whsec_… --fail-first 2        # watch the emulator retry
  $ svc webhook listen --register --url http://127.0.0.1:4010 --api-key sk_test_… --print-body
  $ svc webhook listen --secret whsec_… --respond timeout --json --log deliveries.jsonl`,
    )
    .action(async (options: Omit<ListenOptions, 'forwardTo'> & { forwardTo?: string }) => {
      await listen({ ...options, ...(options.forwardTo === undefined ? {} : { forwardTo: parseForwardTo(options.forwardTo) }) });
    });
}
