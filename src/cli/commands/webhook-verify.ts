/**
 * `svc webhook verify`: runs the receiver's checks on one captured delivery — signature,
 * freshness, event id (when given) and body shape — and exits 0 when it is valid, 1 when it
 * is not (with the reasons), 2 on bad usage.
 */
import { readFileSync } from 'node:fs';
import chalk from 'chalk';
import type { Command } from 'commander';
import { checkDelivery } from '../../receiver/checks.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../../webhooks/signature.js';
import { CliError } from '../output.js';
import { parseTolerance } from './webhook-listen.js';

interface VerifyOptions {
  secret?: string;
  timestamp?: string;
  signature?: string;
  eventId?: string;
  bodyFile?: string;
  tolerance: number;
  ignoreAge?: boolean;
  json?: boolean;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readBody(options: VerifyOptions): Promise<Buffer> {
  if (options.bodyFile !== undefined && options.bodyFile !== '-') {
    try {
      return readFileSync(options.bodyFile);
    } catch (error) {
      throw new CliError(`cannot read --body-file ${options.bodyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
    }
  }
  if (options.bodyFile === undefined && process.stdin.isTTY) {
    throw new CliError('give the raw body with --body-file FILE, or pipe it on stdin', 2);
  }
  return readStdin();
}

function requireOption(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new CliError(`${what} is required`, 2);
  return value;
}

async function verify(options: VerifyOptions): Promise<void> {
  const secret = requireOption(options.secret, '--secret (or SVC_WEBHOOK_SECRET)');
  const timestamp = requireOption(options.timestamp, '--timestamp (the X-Service-Timestamp header)');
  const signature = requireOption(options.signature, '--signature (the X-Service-Signature header)');
  const body = await readBody(options);
  const headers: Record<string, string> = { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp };
  if (options.eventId !== undefined) headers[EVENT_ID_HEADER] = options.eventId;
  // --ignore-age checks the signature of an old capture: "now" is then the moment of signing.
  const nowSeconds = options.ignoreAge && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Math.floor(Date.now() / 1000);
  const result = checkDelivery({ headers, body, secret, toleranceSeconds: options.tolerance, nowSeconds, captured: true });

  const hints: string[] = [];
  if (result.failures.some((f) => f.reason === 'signature_mismatch') && body.at(-1) === 0x0a) {
    hints.push('the body ends with a newline: the signed body usually does not (use printf, not echo, or save the body exactly as received)');
  }
  if (result.failures.some((f) => f.reason === 'timestamp_too_old')) {
    hints.push('to check only the signature of an old capture, add --ignore-age');
  }
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ valid: result.ok, reason: result.failures[0]?.reason ?? null, failures: result.failures, eventId: result.eventId, eventType: result.eventType, signedAt: result.signedAt, hints })}\n`,
    );
  } else if (result.ok) {
    const about = [result.eventType, result.eventId].filter(Boolean).join(' ');
    process.stdout.write(`${chalk.green('valid')}${about ? `  ${about}` : ''}\n`);
  } else {
    process.stdout.write(`${chalk.red(`invalid: ${result.failures[0]!.reason}`)}\n`);
    for (const failure of result.failures) process.stdout.write(`  ${failure.check}: ${failure.reason}: ${failure.message}\n`);
    for (const hint of hints) process.stdout.write(chalk.dim(`  hint: ${hint}\n`));
  }
  process.exitCode = result.ok ? 0 : 1;
}

/** Adds `svc webhook verify` to the `webhook` command. */
export function registerVerify(webhook: Command): void {
  webhook
    .command('verify')
    .description('Check one captured delivery: exit 0 when valid, 1 with the reason when not, 2 on bad usage')
    .option('--secret <secret>', "the webhook's signing secret (env SVC_WEBHOOK_SECRET)", process.env['SVC_WEBHOOK_SECRET'])
    .option('--timestamp <unix>', 'the X-Service-Timestamp header')
    .option('--signature <sha256=…>', 'the X-Service-Signature header')
    .option('--event-id <id>', "the X-Service-Event-Id header; checked against the body's id")
    .option('--body-file <file>', 'the raw body, byte for byte (default: stdin; - for stdin)')
    .option('--tolerance <seconds>', 'oldest timestamp accepted, in seconds or as 5m', parseTolerance, SIGNATURE_TOLERANCE_SECONDS)
    .option('--ignore-age', 'skip the freshness check (for a delivery captured long ago)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ svc webhook verify --secret whsec_… --timestamp 1763719200 \\
      --signature sha256=5f2c… --event-id evt_… --body-file body.json
  $ pbpaste | svc webhook verify --secret whsec_… --timestamp … --signature … --ignore-age`,
    )
    .action(async (options: VerifyOptions) => {
      await verify(options);
    });
}
