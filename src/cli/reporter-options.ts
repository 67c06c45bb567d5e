/**
 * The `--reporter` and `--output` flags that `svc conformance` and `svc webhook probe` share: each
 * `--reporter` may be followed by the `--output` file it writes to, and at most one writes to
 * stdout.
 */
import type { Command } from 'commander';
import { CliError } from './output.js';

export const REPORTERS = ['console', 'json', 'junit'] as const;

export type ReporterName = (typeof REPORTERS)[number];

/** A --reporter flag: which report, and the file it goes to (stdout without one). */
export interface ReporterChoice {
  name: ReporterName;
  output?: string;
}

/** Adds `--reporter` and `--output` to `command`; each parsed flag lands in `reporters`, in order. */
export function withReporterOptions(command: Command, reporters: ReporterChoice[]): Command {
  return command
    .option('--reporter <name>', 'console, json or junit; repeat for several, each followed by its --output', (value: string) => {
      if (!(REPORTERS as readonly string[]).includes(value)) throw new CliError(`--reporter must be one of ${REPORTERS.join(', ')}, got "${value}"`, 2);
      reporters.push({ name: value as ReporterName });
      return value;
    })
    .option('--output <file>', 'file for the reporter named just before it (default: stdout)', (value: string) => {
      const last = reporters.at(-1);
      if (last === undefined || last.output !== undefined) throw new CliError(`--output ${value} must follow the --reporter it belongs to`, 2);
      last.output = value;
      return value;
    });
}

/** Refuses two reports on stdout (exit 2), naming those that need an --output. */
export function validateReporters(reporters: readonly ReporterChoice[]): void {
  const toStdout = reporters.filter((r) => r.output === undefined);
  if (toStdout.length > 1)
    throw new CliError(
      `only one reporter may write to stdout; give --output for ${toStdout
        .slice(1)
        .map((r) => r.name)
        .join(', ')}`,
      2,
    );
}
