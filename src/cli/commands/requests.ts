/** `svc requests`: a running emulator's request journal, oldest first, or followed as it grows (`--tail`). */
import chalk from 'chalk';
import type { Command } from 'commander';
import type { JournalEntry } from '../../schemas/harness.js';
import type { RequestFilter } from '../../client/harness.js';
import { control } from '../control-client.js';
import { CliError, parseIntegerOption } from '../output.js';
import { withControlOptions, type ControlCliOptions } from './control-options.js';

interface RequestsOptions extends ControlCliOptions {
  tenant?: string;
  method?: string;
  path?: string;
  status?: string;
  limit: number;
  tail?: boolean;
  bodies?: boolean;
}

/** How often `--tail` asks for entries after the last one it printed. */
const TAIL_INTERVAL_MS = 500;

function line(entry: JournalEntry, bodies: boolean): string {
  const colour = entry.status >= 500 ? chalk.red : entry.status >= 400 ? chalk.yellow : chalk.green;
  const head = `${entry.time}  ${entry.method.padEnd(6)} ${entry.path}${entry.query} ${colour(String(entry.status))} ${chalk.dim(
    `${entry.durationMs.toFixed(1)}ms ${entry.requestId} ${entry.tenantId ?? '-'}`,
  )}`;
  if (!bodies) return head;
  const body = (label: string, value: unknown): string => (value === null ? '' : `\n    ${chalk.dim(label)} ${JSON.stringify(value)}`);
  return `${head}${body('sent', entry.requestBody)}${body('answered', entry.responseBody)}`;
}

/** The journal's filter: the newest `limit` entries, or (following) every one after `after`. */
function filterOf(options: RequestsOptions, after: number | undefined): RequestFilter {
  const filter: RequestFilter = after === undefined ? { limit: options.limit } : { after };
  if (options.tenant) filter.tenant = options.tenant;
  if (options.method) filter.method = options.method;
  if (options.path) filter.path = options.path;
  if (options.status) filter.status = options.status;
  return filter;
}

export function registerRequests(program: Command): void {
  withControlOptions(program.command('requests').description("Show the emulator's request journal: the requests it answered, oldest first"))
    .option('--tenant <id>', 'only requests made with this tenant’s API key')
    .option('--method <method>', 'only this method, such as POST')
    .option('--path <path>', 'only this path (/v1/users), or paths under a prefix ending in * (/v1/users/*)')
    .option('--status <status>', 'only this status (201) or class (4xx)')
    .option('--limit <n>', 'the newest n (1–10000)', parseIntegerOption('--limit', 1, 10_000), 50)
    .option('--tail', 'keep printing new requests as they are answered, until interrupted')
    .option('--bodies', 'print the bodies too (secrets redacted)')
    .addHelpText(
      'after',
      `
The journal lives in the emulator's memory: the last 1000 requests it answered (svc serve
--journal-size), with bodies
whose secrets (API keys, webhook secrets, tokens, shares, codes) read [redacted]. Requests to
the control plane (/_emulator) are not in it.

Examples:
  $ svc requests
  $ svc requests --path '/v1/users/*' --status 4xx --bodies
  $ svc requests --tail --tenant ten_acme0000000000000001
  $ svc requests --json | jq '.[] | select(.method == "POST")'`,
    )
    .action(async (options: RequestsOptions) => {
      if (options.status !== undefined && !/^[1-5](\d\d|xx)$/.test(options.status))
        throw new CliError(`--status must be a status such as 201 or a class such as 4xx, got "${options.status}"`, 2);
      const first = await control(options, (emulator) => emulator.requests(filterOf(options, undefined)));
      const print = (entries: JournalEntry[]): void => {
        if (entries.length === 0) return;
        // Followed, --json prints one entry per line (JSON lines), so each can be read as it comes.
        const text = options.json
          ? options.tail
            ? entries.map((entry) => JSON.stringify(entry)).join('\n')
            : JSON.stringify(entries)
          : entries.map((entry) => line(entry, options.bodies ?? false)).join('\n');
        process.stdout.write(`${text}\n`);
      };
      if (!options.tail) {
        if (first.length === 0 && !options.json) process.stdout.write('No requests.\n');
        else if (first.length === 0) process.stdout.write('[]\n');
        else print(first);
        return;
      }
      print(first);
      let after = first.at(-1)?.seq ?? 0;
      let stopped = false;
      const stop = (): void => {
        stopped = true;
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      while (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, TAIL_INTERVAL_MS));
        if (stopped) break;
        const more = await control(options, (emulator) => emulator.requests(filterOf(options, after)));
        print(more);
        after = more.at(-1)?.seq ?? after;
      }
    });
}
