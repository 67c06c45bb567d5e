/** Every `svc` command's --help ends with examples: walked from the program itself, so a new command is checked too. */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './index.js';

/** Every command below the program, with its full name (`webhook dlq retry`). */
function commandsOf(command: Command, prefix: string[] = []): Array<[string, Command]> {
  return command.commands.flatMap((sub) => {
    const name = [...prefix, sub.name()];
    return [[name.join(' '), sub] as [string, Command], ...commandsOf(sub, name)];
  });
}

/** What `svc <name> --help` prints, with the text added after the options. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

describe('svc --help', () => {
  const commands = commandsOf(buildProgram());

  it('walks every command, nested ones included', () => {
    expect(commands.map(([name]) => name)).toEqual(
      expect.arrayContaining(['serve', 'webhook', 'webhook dlq', 'webhook dlq list', 'webhook dlq retry', 'faults add']),
    );
  });

  it.for(commands.map(([name]) => name))('%s --help shows at least one example', (name) => {
    const help = helpOf(commands.find(([n]) => n === name)![1]);
    const examples = help.slice(help.indexOf('Examples:'));
    expect(help, name).toContain('Examples:');
    expect(examples, name).toMatch(new RegExp(`\\n {2}\\$ svc ${name}\\b`));
  });
});
