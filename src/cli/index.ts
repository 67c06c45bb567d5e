/** The `svc` command: registers the subcommands, nothing else. */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { registerClock } from './commands/clock.js';
import { registerData } from './commands/data.js';
import { registerDns } from './commands/dns.js';
import { registerEvents } from './commands/events.js';
import { registerExec } from './commands/exec.js';
import { registerExport } from './commands/export.js';
import { registerFaults } from './commands/faults.js';
import { registerOpenApi } from './commands/openapi.js';
import { registerRequests } from './commands/requests.js';
import { registerConformance } from './commands/conformance.js';
import { registerServe } from './commands/serve.js';
import { registerSnapshot } from './commands/snapshot.js';
import { registerTrigger } from './commands/trigger.js';
import { registerWebhook } from './commands/webhook.js';
import { CliError, printError } from './output.js';

export function buildProgram(): Command {
  const program = new Command('svc')
    .description('Local emulator and conformance tool for the Wallet and Identity Service API')
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(withSubcommandHint(program, text)) });
  registerServe(program);
  registerExec(program);
  registerClock(program);
  registerTrigger(program);
  registerEvents(program);
  registerData(program);
  registerExport(program);
  registerRequests(program);
  registerFaults(program);
  registerSnapshot(program);
  registerDns(program);
  registerOpenApi(program);
  registerWebhook(program);
  registerConformance(program);
  return program;
}

/**
 * Commander's "unknown command 'dlq'" with the command that has it one level down, when one
 * does: `svc dlq` means `svc webhook dlq`. Commander's own "Did you mean" only knows the top level.
 */
function withSubcommandHint(program: Command, text: string): string {
  const unknown = /^error: unknown command '([^']+)'\n/.exec(text)?.[1];
  if (unknown === undefined) return text;
  const owners = program.commands.filter((command) => command.commands.some((sub) => sub.name() === unknown || sub.aliases().includes(unknown)));
  if (owners.length === 0) return text;
  const hint = `(Did you mean ${owners.map((owner) => `svc ${owner.name()} ${unknown}`).join(' or ')}?)\n`;
  return text.replace(/\n/, `\n${hint}`);
}

export async function run(argv: string[]): Promise<void> {
  // `svc openapi | head` closes the pipe early: that is the reader's choice, not an error to trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed help, the version or the usage error.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    printError(error);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
