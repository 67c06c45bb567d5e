/** `svc clock get|advance|set`: drive a running emulator's clock (D10). */
import type { Command } from 'commander';
import { parseDuration } from '../../duration.js';
import { control } from '../control-client.js';
import { withControlOptions, type ControlCliOptions } from './control-options.js';
import { CliError } from '../output.js';

function print(state: { now: string; speed: number; fired?: number }, options: ControlCliOptions): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(state)}\n`);
    return;
  }
  const fired = state.fired === undefined ? '' : `  (${state.fired} delivery attempt${state.fired === 1 ? '' : 's'} fired)`;
  process.stdout.write(`${state.now}  speed ×${state.speed}${fired}\n`);
}

export function registerClock(program: Command): void {
  const clock = program
    .command('clock')
    .description('Read, advance or set the emulator clock that drives retries, TTLs and expiry')
    .addHelpText(
      'after',
      `
Examples:
  $ svc clock get
  $ svc clock advance 1d          # fires every retry that comes due, in order
  $ svc clock set --speed 60      # one emulated minute per real second
  $ svc clock set --now 2026-12-01T00:00:00Z`,
    );

  withControlOptions(clock.command('get').description('Show the emulated time and speed'))
    .addHelpText(
      'after',
      `
The emulated time is what TOTP codes, Telegram auth_date, session and guest TTLs and webhook
retries are checked against; it stays where it was across restarts of \`svc serve\`.

Examples:
  $ svc clock get                 # 2026-11-22T10:00:00.000Z  speed ×1
  $ svc clock get --json          # {"now":"2026-11-22T10:00:00.000Z","speed":1}
  $ svc clock get --url http://127.0.0.1:4301`,
    )
    .action(async (options: ControlCliOptions) => {
      print(await control(options, (emulator) => emulator.clock()), options);
    });

  withControlOptions(clock.command('advance <duration>').description('Jump ahead (90s, 15m, 2h, 1d), firing everything that comes due'))
    .addHelpText(
      'after',
      `
Every webhook retry that comes due on the way is sent, in order, at its own emulated time.

Examples:
  $ svc clock advance 90s
  $ svc clock advance 1d          # a failing delivery runs its whole retry schedule into the DLQ
  $ svc clock advance 2h --json`,
    )
    .action(async (by: string, options: ControlCliOptions) => {
      if (parseDuration(by) === undefined) throw new CliError(`"${by}" is not a duration such as 90s, 15m, 2h or 1d`, 2);
      print(await control(options, (emulator) => emulator.advance(by)), options);
    });

  withControlOptions(clock.command('set').description('Set the emulated time and/or speed'))
    .option('--now <iso>', 'emulated time, ISO 8601')
    .option('--speed <n>', 'emulated seconds per real second')
    .addHelpText(
      'after',
      `
Moving the time backwards is allowed and fires nothing.

Examples:
  $ svc clock set --now 2026-12-01T00:00:00Z
  $ svc clock set --speed 60      # one emulated minute per real second
  $ svc clock set --now 2026-12-01T00:00:00Z --speed 1`,
    )
    .action(async (options: ControlCliOptions & { now?: string; speed?: string }) => {
      if (options.now === undefined && options.speed === undefined) throw new CliError('give --now, --speed or both', 2);
      const body: { now?: string; speed?: number } = {};
      if (options.now !== undefined) {
        const when = new Date(options.now);
        if (Number.isNaN(when.getTime())) throw new CliError(`--now "${options.now}" is not an ISO date`, 2);
        body.now = when.toISOString();
      }
      if (options.speed !== undefined) {
        const speed = Number(options.speed);
        if (!(speed > 0)) throw new CliError(`--speed must be a positive number, got "${options.speed}"`, 2);
        body.speed = speed;
      }
      print(await control(options, (emulator) => emulator.setClock(body)), options);
    });
}
