/** How the CLI talks: colours only on a TTY and never with NO_COLOR; errors as one line. */
import chalk from 'chalk';

if (process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '') chalk.level = 0;

/** An error the user can act on: printed as one line, exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function printError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${chalk.red('error:')} ${message}\n`);
}

export function parseIntegerOption(name: string, min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new CliError(`${name} must be a whole number from ${min} to ${max}, got "${text}"`, 2);
    return value;
  };
}

export function parsePositiveNumberOption(name: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new CliError(`${name} must be a positive number, got "${text}"`, 2);
    return value;
  };
}

/** A repeatable comma-list option (`--only a,b --only c`): every item, trimmed, empty ones left out. */
export function splitList(text: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}
