/** `svc snapshot save|restore|list|delete`: named snapshots of a running emulator's whole state (docs/control-plane.md#snapshots). */
import type { Command } from 'commander';
import type { SnapshotInfo } from '../../schemas/snapshots.js';
import { SNAPSHOT_NAME_PATTERN } from '../../schemas/snapshots.js';
import { control } from '../control-client.js';
import { CliError } from '../output.js';
import { plural, printResult, withControlOptions, type ControlCliOptions } from './control-options.js';

function checkName(name: string): string {
  if (!SNAPSHOT_NAME_PATTERN.test(name)) throw new CliError(`"${name}" is not a snapshot name: letters, digits, - _ and . (not first), at most 100`, 2);
  return name;
}

function line(snapshot: SnapshotInfo): string {
  return `${snapshot.name}  saved ${snapshot.savedAt}  clock ${snapshot.clock.now} ×${snapshot.clock.speed}  ${plural(snapshot.tenants, 'tenant')}, ${plural(snapshot.records, 'record')}`;
}

export function registerSnapshot(program: Command): void {
  const snapshot = program
    .command('snapshot')
    .description("Save the emulator's whole state (every tenant's records, deliveries and their retries, the clock) under a name, and go back to it")
    .addHelpText(
      'after',
      `
A snapshot holds every record of every tenant (webhooks, events, deliveries with their attempts
and planned retries, the DLQ, sessions, MFA and passkey state) and the clock with its speed. It is
kept in the data dir (snapshots/NAME.json); \`svc serve --snapshot NAME\` starts from one. A store
on PostgreSQL refuses snapshots (docs/control-plane.md#snapshots). \`svc export\` writes a fixture, not a snapshot.

Examples:
  $ svc snapshot save after-signup
  $ svc snapshot list
  $ svc snapshot restore after-signup   # the store and the clock as they were saved
  $ svc snapshot delete after-signup`,
    );

  withControlOptions(snapshot.command('save <name>').description('Save the whole state under NAME (replacing a snapshot of that name)'))
    .addHelpText(
      'after',
      `
Names are letters, digits, - _ and . (not first).

Examples:
  $ svc snapshot save after-signup
  $ svc snapshot save before-retries --json`,
    )
    .action(async (name: string, options: ControlCliOptions) => {
      // Checked before the call: a bad name is a usage error, not an unreachable emulator.
      const checked = checkName(name);
      const saved = await control(options, (emulator) => emulator.snapshots.save(checked));
      printResult(options, saved, () => [`saved ${line(saved)}`]);
    });

  withControlOptions(snapshot.command('restore <name>').description('Put the store and the clock back as snapshot NAME holds them'))
    .addHelpText(
      'after',
      `
Every record written since is gone; retries the snapshot's deliveries waited for are planned again
on the restored clock.

Examples:
  $ svc snapshot restore after-signup
  $ svc snapshot restore after-signup --url http://127.0.0.1:4301`,
    )
    .action(async (name: string, options: ControlCliOptions) => {
      // Checked before the call: a bad name is a usage error, not an unreachable emulator.
      const checked = checkName(name);
      const restored = await control(options, (emulator) => emulator.snapshots.restore(checked));
      printResult(options, restored, () => [`restored ${line(restored)}`]);
    });

  withControlOptions(snapshot.command('list').description('List the snapshots'))
    .addHelpText(
      'after',
      `
Examples:
  $ svc snapshot list
  $ svc snapshot list --json`,
    )
    .action(async (options: ControlCliOptions) => {
      const snapshots = await control(options, (emulator) => emulator.snapshots.list());
      printResult(options, snapshots, () => (snapshots.length === 0 ? ['no snapshots; save one with svc snapshot save NAME'] : snapshots.map(line)));
    });

  withControlOptions(snapshot.command('delete <name>').description('Delete snapshot NAME'))
    .addHelpText(
      'after',
      `
Examples:
  $ svc snapshot delete after-signup`,
    )
    .action(async (name: string, options: ControlCliOptions) => {
      // Checked before the call: a bad name is a usage error, not an unreachable emulator.
      const checked = checkName(name);
      const deleted = await control(options, (emulator) => emulator.snapshots.delete(checked));
      printResult(options, deleted, () => [`deleted ${deleted.name}`]);
    });
}
