/** `svc seed FILE` and `svc reset`: add a fixture to a running emulator's store, or start it over (D11). */
import chalk from 'chalk';
import type { Command } from 'commander';
import { FixtureError, loadFixtureFile } from '../../services/seed.js';
import { control } from '../control-client.js';
import { CliError } from '../output.js';
import { plural, printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

const listTenants = (tenants: Array<{ id: string; name: string; plan: string }>): string =>
  tenants.map((tenant) => `${tenant.name} ${chalk.dim(`(${tenant.id}, ${tenant.plan})`)}`).join(', ');

export function registerData(program: Command): void {
  withControlOptions(program.command('seed <file>').description('Add the tenants, keys, apps, users and webhooks of a fixture file to a running emulator'))
    .addHelpText(
      'after',
      `
The file has the format of fixtures/default.json; it is checked here first, and a tenant id or
API key the store already holds is refused (reset first to start over).

Examples:
  $ svc seed fixtures/default.json --url http://127.0.0.1:4010
  $ svc seed ./my-tenants.json --json`,
    )
    .action(async (file: string, options: ControlCliOptions) => {
      let fixture;
      try {
        // Checked here first, so a bad file is a readable error before any request; the server checks again.
        fixture = await loadFixtureFile(file);
      } catch (error) {
        // As `svc serve --seed` prints it: one problem a line under the file's name.
        if (error instanceof FixtureError) throw new CliError(error.message, 2);
        throw error;
      }
      const { tenants } = await control(options, (emulator) => emulator.seed(fixture));
      printResult(options, { tenants }, () => [`${chalk.green('Seeded')} ${plural(tenants.length, 'tenant')}: ${listTenants(tenants)}`]);
    });

  withControlOptions(program.command('reset').description("Empty a running emulator's store and seed its fixture again"))
    .addHelpText(
      'after',
      `
Everything made since the server started (users, keys, webhooks, deliveries, events) is gone;
the fixture the server was started with (--seed, default fixtures/default.json) is seeded
again in the same durable write. The clock and injected faults stay as they are.

Examples:
  $ svc reset
  $ svc reset --url http://127.0.0.1:4011 --json`,
    )
    .action(async (options: ControlCliOptions) => {
      const { tenants } = await control(options, (emulator) => emulator.reset());
      printResult(options, { tenants }, () => [`${chalk.green('Reset')}: the store holds the fixture again: ${listTenants(tenants)}`]);
    });
}
