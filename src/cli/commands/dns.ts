/** `svc dns set|list|remove`: the running emulator's emulated DNS TXT records, which custom-domain verification reads first (docs/control-plane.md#emulated-dns). */
import chalk from 'chalk';
import type { Command } from 'commander';
import type { TxtRecordView } from '../../schemas/dns.js';
import { control } from '../control-client.js';
import { printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

function describe(record: TxtRecordView): string {
  return `${record.name}  ${record.values.map((value) => JSON.stringify(value)).join(' ')}  ${chalk.dim(`(set ${record.updatedAt})`)}`;
}

export function registerDns(program: Command): void {
  const dns = program
    .command('dns')
    .description('Emulated DNS TXT records: custom-domain verification reads them before it asks a resolver')
    .addHelpText(
      'after',
      `
A name with an emulated record answers its values and nothing else; any other name goes to
\`svc serve --dns-server\` (or the system resolver) as before. Records stay across restarts and
resets; \`svc dns remove\` takes one away.

Examples:
  $ svc dns set _svc-verify.auth.example.com svc-verify=Q2x9fJ3k…
  $ svc dns list
  $ svc dns remove _svc-verify.auth.example.com`,
    );

  withControlOptions(dns.command('set').description('Publish a TXT record: NAME answers the VALUEs (replacing what it answered)'))
    .argument('<name>', 'the DNS name, such as _svc-verify.auth.example.com')
    .argument('<values...>', 'one or more values (at most 16, each at most 255 characters)')
    .addHelpText(
      'after',
      `
Examples:
  $ svc dns set _svc-verify.auth.example.com svc-verify=Q2x9fJ3k…
  $ svc dns set _svc-verify.auth.example.com "v=spf1 -all" svc-verify=Q2x9fJ3k…
  $ svc dns set --url http://127.0.0.1:4011 --json _svc-verify.auth.example.com svc-verify=Q2x9fJ3k…`,
    )
    .action(async (name: string, values: string[], options: ControlCliOptions) => {
      const record = await control(options, (emulator) => emulator.dns.txt.set(name, values));
      printResult(options, record, () => [`${chalk.green('Set')} ${describe(record)}`]);
    });

  withControlOptions(dns.command('list').description('List the emulated TXT records'))
    .addHelpText('after', '\nExamples:\n  $ svc dns list\n  $ svc dns list --json')
    .action(async (options: ControlCliOptions) => {
      const records = await control(options, (emulator) => emulator.dns.txt.list());
      printResult(options, records, () => (records.length === 0 ? ['No emulated TXT records.'] : records.map(describe)));
    });

  withControlOptions(dns.command('remove').alias('rm').description('Remove an emulated TXT record: the name goes to the resolver again'))
    .argument('<name>', 'the DNS name')
    .addHelpText('after', '\nExamples:\n  $ svc dns remove _svc-verify.auth.example.com\n  $ svc dns rm _svc-verify.auth.example.com --json')
    .action(async (name: string, options: ControlCliOptions) => {
      const removed = await control(options, (emulator) => emulator.dns.txt.remove(name));
      printResult(options, removed, () => [`Removed the TXT record of ${removed.name}.`]);
    });
}
