/**
 * Telegram sign-in: Login Widget data and Mini App initData, checked exactly as Telegram
 * documents them. Widget: data-check-string of every received field but `hash`, sorted,
 * `key=value` joined by newlines; key = SHA-256(bot token); `hash` = hex HMAC-SHA256.
 * Mini App: key = HMAC-SHA256(bot token, key "WebAppData") (@telegram-apps/init-data-node).
 * `auth_date` must be within 24 h of the emulator clock. The user is found (or made) by
 * Telegram id; with a session, the Telegram account is linked to that user instead.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isAuthDateInvalidError, isSignatureInvalidError, isSignatureMissingError, validate } from '@telegram-apps/init-data-node';
import { z } from '@hono/zod-openapi';
import { ApiError, conflict } from '../errors.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { emulatorTimeDetail } from './emulator-time.js';
import type { TelegramAccountRecord, TenantRecord, UserRecord } from '../store/records.js';
import { emitEvent } from './events.js';
import { authenticateSession, openSession, sessionTtlMs, type SessionGrant } from './sessions.js';
import { insertUser, prepareUser, type PreparedUser } from './users.js';

/** How old `auth_date` may be (Telegram's advice, and the rule). */
export const TELEGRAM_AUTH_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const TELEGRAM_WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js?22';

/** The Telegram user a sign-in is for. */
export interface TelegramProfile {
  telegramId: string;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  photoUrl: string | null;
  authDate: number;
}

export type WidgetFields = Record<string, string | number | boolean>;

/** The tenant's bot token, or 409 when none is set (it is write-only: PATCH /tenant). */
function botToken(tenant: TenantRecord): string {
  const token = tenant.settings.telegram.botToken;
  if (token === null) throw conflict('This tenant has no Telegram bot token; set settings.telegram.botToken with PATCH /tenant');
  return token;
}

function invalid(why: string): ApiError {
  return new ApiError('invalid_telegram_auth', `The Telegram data is not authentic: ${why}`);
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase(), 'utf8');
  const right = Buffer.from(b.toLowerCase(), 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The Login Widget's data-check-string: every field but `hash`, sorted by name, `k=v` per line. */
export function widgetCheckString(fields: WidgetFields): string {
  return Object.keys(fields)
    .filter((key) => key !== 'hash')
    .sort()
    .map((key) => `${key}=${String(fields[key])}`)
    .join('\n');
}

/** Checks Login Widget data; answers the profile it vouches for. */
export function checkWidgetData(fields: WidgetFields, token: string): TelegramProfile {
  const secret = createHash('sha256').update(token, 'utf8').digest();
  const expected = createHmac('sha256', secret).update(widgetCheckString(fields), 'utf8').digest('hex');
  if (!sameHex(String(fields['hash'] ?? ''), expected)) throw invalid('the hash does not match the data');
  const text = (key: string): string | null => (fields[key] === undefined ? null : String(fields[key]));
  return {
    telegramId: String(fields['id']),
    firstName: text('first_name'),
    lastName: text('last_name'),
    username: text('username'),
    photoUrl: text('photo_url'),
    authDate: Number(fields['auth_date']),
  };
}

const InitDataUser = z.object({
  id: z.number().int(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  photo_url: z.string().optional(),
});

/** Checks Mini App initData (hash with the WebAppData key); answers the profile of its `user`. */
export function checkInitData(initData: string, token: string): TelegramProfile {
  try {
    // Expiry is checked by the caller against the emulator clock, not the real one.
    validate(initData, token, { expiresIn: 0 });
  } catch (error) {
    if (isSignatureInvalidError(error)) throw invalid('the hash does not match the data');
    if (isSignatureMissingError(error)) throw invalid('initData has no hash');
    if (isAuthDateInvalidError(error)) throw invalid('auth_date is missing or not a Unix time');
    throw invalid((error as Error).message);
  }
  const params = new URLSearchParams(initData);
  let user: z.infer<typeof InitDataUser>;
  try {
    user = InitDataUser.parse(JSON.parse(params.get('user') ?? 'null'));
  } catch {
    throw invalid('initData carries no user with a numeric id');
  }
  return {
    telegramId: String(user.id),
    firstName: user.first_name ?? null,
    lastName: user.last_name ?? null,
    username: user.username ?? null,
    photoUrl: user.photo_url ?? null,
    authDate: Number(params.get('auth_date')),
  };
}

/** 401 telegram_auth_expired when auth_date is more than 24 h before the emulator's now. */
function checkFresh(rt: Runtime, profile: TelegramProfile): void {
  if (!Number.isInteger(profile.authDate) || profile.authDate <= 0) throw invalid('auth_date is not a Unix time');
  if (rt.clock.nowMs() - profile.authDate * 1000 > TELEGRAM_AUTH_MAX_AGE_MS) {
    const hint = 'sign in with Telegram again, or make auth_date from the emulator clock (GET /_emulator/clock, or `svc clock get`)';
    throw new ApiError('telegram_auth_expired', 'The Telegram data is older than 24 hours (auth_date); sign in with Telegram again', [
      emulatorTimeDetail(rt, 'auth_date', 'auth_date', hint),
    ]);
  }
}

function displayName(profile: TelegramProfile): string | null {
  const name = [profile.firstName, profile.lastName].filter((part) => part !== null && part !== '').join(' ');
  return name === '' ? (profile.username ?? null) : name;
}

function accountFields(profile: TelegramProfile, now: string) {
  return {
    username: profile.username,
    firstName: profile.firstName,
    lastName: profile.lastName,
    photoUrl: profile.photoUrl,
    lastAuthAt: now,
  };
}

function linkAccount(rt: Runtime, tenantId: string, userId: string, profile: TelegramProfile): TelegramAccountRecord {
  const now = rt.clock.iso();
  return rt.store.insert('telegramAccounts', {
    id: newId('tga'),
    tenantId,
    userId,
    telegramId: profile.telegramId,
    createdAt: now,
    ...accountFields(profile, now),
  });
}

export interface TelegramInput {
  initData?: string | undefined;
  widget?: WidgetFields | undefined;
  /** The request's Authorization header: with a session, the account is linked to its user. */
  authorization?: string | undefined;
}

/**
 * Verifies Telegram data and signs in: the user linked to the Telegram id, or a new `basic`
 * user (no `user.created`: Telegram gives no e-mail, see users.ts announceUser). With a
 * session, links the account to the session's user (`user.updated`).
 */
export async function signInWithTelegram(
  rt: Runtime,
  tenant: TenantRecord,
  input: TelegramInput,
): Promise<{ user: UserRecord; session: SessionGrant; created: boolean }> {
  const token = botToken(tenant);
  const profile = input.initData !== undefined ? checkInitData(input.initData, token) : checkWidgetData(input.widget ?? {}, token);
  checkFresh(rt, profile);
  const linkTo = input.authorization === undefined ? undefined : authenticateSession(rt, tenant.id, input.authorization).user;
  const key = `${tenant.id}:${profile.telegramId}`;
  const known = rt.store.findByKey('telegramAccounts', key);
  let prepared: PreparedUser | undefined;
  if (!known && !linkTo) {
    prepared = await prepareUser(rt, tenant.id, { email: null, name: displayName(profile), trustLevel: 'basic' });
  }
  return rt.store.write(() => {
    const account = rt.store.findByKey('telegramAccounts', key);
    let user: UserRecord | undefined;
    let created = false;
    if (account) {
      if (linkTo && account.userId !== linkTo.id) throw conflict('This Telegram account is already linked to another user');
      rt.store.update('telegramAccounts', account.id, accountFields(profile, rt.clock.iso()));
      user = rt.store.getOwned('users', tenant.id, account.userId);
    } else if (linkTo) {
      linkAccount(rt, tenant.id, linkTo.id, profile);
      user = rt.store.update('users', linkTo.id, { updatedAt: rt.clock.iso() });
      emitEvent(rt, tenant.id, 'user.updated', { userId: user.id, changes: ['signInMethods'], added: 'telegram' });
    } else if (prepared) {
      user = insertUser(rt, prepared);
      linkAccount(rt, tenant.id, user.id, profile);
      created = true;
    }
    if (!user) throw invalid('the linked user no longer exists');
    const { grant } = openSession(rt, user, 'telegram', sessionTtlMs(tenant));
    return { user, session: grant, created };
  });
}

/** What the Login Widget needs (never the token). */
export function widgetConfig(tenant: TenantRecord) {
  const { botUsername, botToken: token } = tenant.settings.telegram;
  const botId = token === null ? null : (token.split(':')[0] ?? null);
  return {
    botUsername,
    botId,
    configured: token !== null,
    requestAccess: 'write' as const,
    scriptUrl: TELEGRAM_WIDGET_SCRIPT,
    maxAuthAge: '24h',
  };
}
