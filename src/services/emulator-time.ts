/**
 * The `details` entry of errors whose verdict depends on the emulator clock (D10): a
 * TOTP code or a Telegram auth_date is judged against the emulator's now, which `svc clock
 * advance` may have moved away from real time. The entry names that time, so a right code
 * made for real time is not a mystery.
 */
import type { ErrorDetail } from '../errors.js';
import type { Runtime } from '../runtime.js';

/** Offsets smaller than this are not worth a sentence (one TOTP step is 30 s). */
const NOTABLE_OFFSET_MS = 30_000;

function spoken(ms: number): string {
  const abs = Math.abs(ms);
  const [amount, unit] =
    abs >= 86_400_000 ? [abs / 86_400_000, 'd'] : abs >= 3_600_000 ? [abs / 3_600_000, 'h'] : abs >= 60_000 ? [abs / 60_000, 'min'] : [abs / 1000, 's'];
  return `${Number(amount.toFixed(1))} ${unit} ${ms > 0 ? 'ahead of' : 'behind'} real time`;
}

/**
 * `{ path, message, emulatorNow, realNow }`: `message` says what was checked against the
 * emulator's now, how far that is from real time, and `hint` how to make a value for it.
 */
export function emulatorTimeDetail(rt: Runtime, path: string, checked: string, hint: string): ErrorDetail {
  const { emulatorNow, realNow, where } = clockNow(rt);
  return { path, message: `${checked} is checked against the emulator clock, now ${emulatorNow} (${where}); ${hint}`, emulatorNow, realNow };
}

function clockNow(rt: Runtime): { emulatorNow: string; realNow: string; where: string } {
  const emulatorMs = rt.clock.nowMs();
  const realMs = Date.now();
  const offset = emulatorMs - realMs;
  const where = Math.abs(offset) < NOTABLE_OFFSET_MS ? 'which is real time' : `which is ${spoken(offset)}`;
  return { emulatorNow: new Date(emulatorMs).toISOString(), realNow: new Date(realMs).toISOString(), where };
}

/**
 * `{ path?, message, expiresAt, emulatorNow, realNow }` for a session, challenge or link past
 * its expiry on the emulator clock (a 410): a clock moved by `svc clock advance` or a fast
 * `--clock-speed` ends it long before real time would, and the detail says so.
 */
export function expiryDetail(rt: Runtime, what: string, expiresAt: string, hint: string, path?: string): ErrorDetail {
  const { emulatorNow, realNow, where } = clockNow(rt);
  return {
    ...(path === undefined ? {} : { path }),
    message: `${what} expired at ${expiresAt} on the emulator clock, now ${emulatorNow} (${where}); ${hint}`,
    expiresAt,
    emulatorNow,
    realNow,
  };
}
