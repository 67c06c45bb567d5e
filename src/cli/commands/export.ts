/** `svc export`: a running emulator's store (or one tenant) as a fixture file that `--seed` and `svc seed` take back. */
import chalk from 'chalk';
import type { Command } from 'commander';
import { withoutSecrets, type ExportResult } from '../../services/export.js';
import { control, type ControlOptions } from '../control-client.js';
import { writePrivateFile } from '../private-file.js';
import { withControlOptions, type ControlCliOptions } from './control-options.js';

interface ExportOptions extends ControlCliOptions {
  tenant?: string;
  out?: string;
  includeSecrets?: boolean;
}

/**
 * Fetches the export and writes its fixture to `out` (0600), or answers the text; notes go to
 * stderr. Its secrets (API keys, bot tokens) read [redacted] unless `includeSecrets`.
 */
export async function exportTo(
  options: ControlOptions & { tenant?: string | undefined; includeSecrets?: boolean | undefined },
  out: string | undefined,
): Promise<ExportResult> {
  const fetched = await control(options, (emulator) => emulator.export(options.tenant));
  const result = options.includeSecrets === true ? fetched : withoutSecrets(fetched);
  const text = `${JSON.stringify(result.fixture, null, 2)}\n`;
  if (out === undefined) process.stdout.write(text);
  else await writePrivateFile(out, text);
  return result;
}

/** What the fixture could not hold, for people (stderr, so stdout stays the fixture). */
export function exportNotes(result: ExportResult, includeSecrets = false): string[] {
  const notes: string[] = [];
  if (!includeSecrets)
    notes.push(`${chalk.dim('API keys, bot tokens and webhook secrets read [redacted]; --include-secrets writes them, for a fixture --seed takes back')}`);
  for (const replaced of result.replacedKeys) {
    notes.push(
      `${chalk.yellow('note:')} no key of ${replaced.tenantName} (${replaced.tenantId}) is known in plain text; the fixture gives it the new key ${replaced.key}`,
    );
  }
  const leftOut = Object.entries(result.leftOut).map(([name, count]) => `${count} ${name}`);
  if (leftOut.length > 0) notes.push(`${chalk.dim('not in the fixture format, left out:')} ${leftOut.join(', ')}`);
  return notes;
}

export function registerExport(program: Command): void {
  withControlOptions(program.command('export').description("Write a running emulator's store, or one tenant, as a fixture file"))
    .option('--tenant <id>', 'only this tenant')
    .option('-o, --out <file>', 'write the fixture here, readable by you alone (default: standard output)')
    .option('--include-secrets', 'write API keys, bot tokens, webhook secrets in clear (without it they read [redacted])')
    .addHelpText(
      'after',
      `
The fixture holds each tenant (its id, name, plan, settings), its API keys, apps, users (with
their passkeys and open guest sessions) and webhooks, each with its id; \`svc serve --seed FILE\`
on a fresh data dir, or \`svc seed FILE\` after a reset, gives them back the same. Events,
deliveries and sign-in sessions have no place in the format and are counted as left out. The
store keeps only a hash of each API key, so a key is written when svc knows its value (the
fixture's keys, and keys made by POST /_emulator/tenants); a tenant with none of those gets a
new key, printed on stderr.

The fixture's secrets (API keys, Telegram bot tokens, webhook secrets) read [redacted] unless
you pass --include-secrets; a fixture without them does not seed an emulator. The --out file
is written 0600, readable by you alone.

Examples:
  $ svc export --include-secrets --out state.json && svc serve --seed state.json --data-dir "$(mktemp -d)"
  $ svc export --tenant ten_acme0000000000000001 > acme.json        # keys and bot tokens read [redacted]`,
    )
    .action(async (options: ExportOptions) => {
      const result = await exportTo(options, options.out);
      const notes = exportNotes(result, options.includeSecrets === true);
      if (options.json) process.stderr.write(`${JSON.stringify({ replacedKeys: result.replacedKeys, leftOut: result.leftOut })}\n`);
      else if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
      if (options.out !== undefined && !options.json)
        process.stderr.write(`${chalk.green('Exported')} ${result.fixture.tenants.length} tenant(s) to ${options.out}\n`);
    });
}
