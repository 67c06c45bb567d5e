/** The options every command that drives a running emulator's control plane shares. */
import type { Command } from 'commander';
import { DEFAULT_ORIGIN, type ControlOptions } from '../control-client.js';

export interface ControlCliOptions extends ControlOptions {
  json?: boolean;
}

/** `--url`, `--admin-token` (both also from SVC_URL, SVC_ADMIN_TOKEN) and `--json`. */
export function withControlOptions(command: Command): Command {
  return command
    .option('--url <url>', 'the emulator (env SVC_URL)', process.env['SVC_URL'] ?? DEFAULT_ORIGIN)
    .option('--admin-token <token>', "the emulator's --admin-token, when not on loopback (env SVC_ADMIN_TOKEN)", process.env['SVC_ADMIN_TOKEN'])
    .option('--json', 'print JSON for scripts');
}

/** Prints `value` as one JSON line when --json, else the human lines. */
export function printResult(options: { json?: boolean }, value: unknown, human: () => string[]): void {
  process.stdout.write(options.json ? `${JSON.stringify(value)}\n` : `${human().join('\n')}\n`);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
