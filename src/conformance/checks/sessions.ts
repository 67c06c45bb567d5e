/**
 * Signed-in users for the checks that need one (D4): a guest session is the one sign-in
 * a suite can do on its own, so checks of sessions, MFA, wallets, key shares and delegated
 * sessions start from it. Each guest session is expired at the end of the run.
 */
import type { ApiResult } from '../../client/index.js';
import { envelope } from '../../schemas/common.js';
import { ClockState } from '../../schemas/control.js';
import { expect, expectShape } from '../expect.js';
import { stringField } from '../shapes.js';
import type { CheckContext, Uses } from '../types.js';
import { parseDuration } from '../../duration.js';
import { RUN_SESSION_SETTINGS, sessionSettingsForRun } from './settings.js';
import { created, removal } from './support.js';

/**
 * What a check that signs in holds (types.ts Uses): a session, a challenge, a TOTP code or a
 * delegated session that a move of the emulator clock would end, or make wrong, while it runs.
 */
export const HOLDS_SESSION: Uses = { clock: 'holds', why: 'holds a session, challenge or code that a move of the clock would end' };

export interface Session {
  guestId: string;
  userId: string;
  token: string;
}

/**
 * POST /guests {} (D15): a user with a session token; expired at the end. On the emulator the
 * session lives as long as the run's checks need it, whatever the tenant's guestTtl.
 */
export async function guestSession(ctx: CheckContext): Promise<Session & { result: Awaited<ReturnType<CheckContext['client']['guests']['create']>> }> {
  await sessionSettingsForRun(ctx);
  const result = await ctx.client.guests.create();
  const data = created(result, 'part 4: create guest session (POST /guests) must succeed');
  const guestId = stringField(data, 'id', 'a guest session has an id', result);
  // A converted guest is a user now (409 to expire): nothing of the session is left to end.
  ctx.defer({ description: `guest session ${guestId}`, run: () => removal(ctx.client.guests.expire(guestId), [409]) });
  const session = data['session'] as { token?: unknown } | undefined;
  const user = data['user'] as { id?: unknown } | undefined;
  expect(
    typeof session?.token === 'string' && typeof user?.id === 'string',
    'D4/D15: a guest session answers { user, session: { token } }',
    'no user id or session token',
    result,
  );
  ctx.keep(`guest user ${user.id}`);
  return { guestId, userId: user.id, token: session.token, result };
}

/** The emulator clock's now, in ms (TOTP codes and TTLs are judged on it, D5, D10). */
export async function emulatorNow(ctx: CheckContext): Promise<number> {
  const { data } = expectShape(await ctx.client.emulator.clock(), envelope(ClockState), 'D10: GET /_emulator/clock');
  return Date.parse(data.now);
}

/** How far the target's real time may be from the suite's (loopback in tests; a remote emulator's clock may drift). */
const REAL_TIME_SLACK_MS = 5 * 60_000;

/**
 * An error the emulator clock caused (a TTL, a challenge, a session past its expiry) names the
 * emulator's now and the real now in `details` (D6, D10), as invalid_code does: `clockNowMs` is
 * the clock as the check last moved it, so a detail of real time alone, or of a stale clock, fails.
 */
export function expectClockTimes(result: ApiResult<unknown>, clockNowMs: number, rule: string): void {
  const details = (result.body as { details?: unknown } | undefined)?.details;
  const entry = Array.isArray(details)
    ? (details as Array<Record<string, unknown>>).find((d) => typeof d?.['emulatorNow'] === 'string' && typeof d['realNow'] === 'string')
    : undefined;
  expect(entry !== undefined, rule, 'no entry of details carries emulatorNow and realNow', result);
  const emulator = Date.parse(String(entry['emulatorNow']));
  const real = Date.parse(String(entry['realNow']));
  // The clock runs at ×1 during a run (run-clock.ts): its now is the check's last move plus the seconds since.
  expect(
    emulator >= clockNowMs - 1_000 && emulator <= clockNowMs + 60_000,
    rule,
    `emulatorNow ${String(entry['emulatorNow'])} is not the emulator clock's now (${new Date(clockNowMs).toISOString()})`,
    result,
  );
  expect(Math.abs(real - Date.now()) <= REAL_TIME_SLACK_MS, rule, `realNow ${String(entry['realNow'])} is not real time`, result);
}

/**
 * How far a step past an expiry or a freshness may take the clock (ctx.stepClock's upTo): what
 * ended stays ended, and every session the run holds outlives that many times (RUN_SESSION_SETTINGS).
 */
export const PAST_UP_TO = '1h';

/**
 * Advances the emulator clock (D10) by `by` from now (or by up to `upTo`, where more shows the
 * check the same), through the run's clock lane (ctx.stepClock); answers its new now, in ms.
 */
export async function advanceClock(ctx: CheckContext, by: string, upTo?: string): Promise<number> {
  const result = await ctx.stepClock(by, upTo);
  expect(result.ok, `D10: POST /_emulator/clock/advance {"by":"${by}"}`, `answered ${result.status}`, result);
  return Date.parse(expectShape(result, envelope(ClockState), 'D10: advance answers the clock').data.now);
}

/** How far before an expiry a check looks that what it holds still works, and how far past it that it no longer does. */
const JUST_BEFORE_S = 5;
const JUST_PAST_MS = 1_000;

/**
 * Steps the emulator clock to a few seconds before `endsAt` (an expiry or the end of a freshness,
 * in ms of the emulator clock) from `now`, the clock as last read (5 to 6 s before it, in whole
 * seconds); answers the clock the step reached.
 */
export function stepToJustBefore(ctx: CheckContext, endsAt: number, now: number): Promise<number> {
  return advanceClock(ctx, `${Math.max(0, Math.floor((endsAt - now) / 1000) - JUST_BEFORE_S)}s`);
}

/**
 * Steps the emulator clock a second past `endsAt`, or further up to PAST_UP_TO, measured from
 * `reached`, the clock the step before answered: a fixed step from a time rounded down to
 * the second would land anywhere from a second to a few milliseconds past it.
 */
export function stepJustPast(ctx: CheckContext, endsAt: number, reached: number): Promise<number> {
  return advanceClock(ctx, `${Math.max(JUST_PAST_MS, Math.ceil(endsAt + JUST_PAST_MS - reached))}ms`, PAST_UP_TO);
}

/**
 * Advances the emulator clock one second past a session setting the run holds (settings.ts:
 * every check that signs in has set them first, so there is nothing to read back), in one step;
 * or by up to `upTo`, where a move further past it shows the check the same.
 */
export async function advancePast(ctx: CheckContext, setting: keyof typeof RUN_SESSION_SETTINGS, upTo?: string): Promise<number> {
  const ms = parseDuration(RUN_SESSION_SETTINGS[setting]) ?? 0;
  return advanceClock(ctx, `${Math.ceil(ms / 1000) + 1}s`, upTo);
}

export interface ClaimedWallet extends Session {
  walletId: string;
  publicKey: string;
  partyId: string;
  deviceShare: string;
  recoveryShare: string;
  result: Awaited<ReturnType<CheckContext['client']['users']['createWallet']>>;
}

/** A guest whose pre-generated wallet is claimed (D13, D15): shares 2 and 3 are answered once. */
export function claimedWallet(ctx: CheckContext): Promise<ClaimedWallet> {
  return ctx.shared('claimed-wallet', async () => {
    const session = await guestSession(ctx);
    const result = await ctx.client.users.createWallet(session.token);
    const data = created(result, 'part 4: create wallet for the current user (POST /users/me/wallet)', [201]);
    const field = (name: string): string => stringField(data, name, `D15: the claimed wallet carries ${name}`, result);
    return {
      ...session,
      walletId: field('id'),
      publicKey: field('publicKey'),
      partyId: field('partyId'),
      deviceShare: field('deviceShare'),
      recoveryShare: field('recoveryShare'),
      result,
    };
  });
}
