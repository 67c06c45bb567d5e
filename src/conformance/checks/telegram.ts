/**
 * Telegram sign-in (spec part 4; D3, D6, D15): the widget configuration never shows the
 * bot token, data with a wrong hash is refused, and — in a tenant of the check's own, whose
 * bot token it sets — signed data signs a user in, again the same user, until its auth_date is
 * more than a day old on the emulator clock.
 */
import { createHash, createHmac } from 'node:crypto';
import { SignIn } from '../../schemas/auth.js';
import { envelope, paginated } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';
import { User } from '../../schemas/users.js';
import { TelegramWidgetConfig } from '../../schemas/telegram.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';
import { emulatorNow, expectClockTimes } from './sessions.js';
import { expectReadBack, ownTenant } from './support.js';

/** How old auth_date may be (D6: Telegram's own advice). */
const MAX_AUTH_AGE_MS = 24 * 3_600_000;

/** Login Widget data signed with `botToken` as Telegram signs it: HMAC-SHA256 keyed by SHA-256(token) over the sorted `k=v` lines. */
type WidgetData = { id: number; auth_date: number } & Record<string, string | number>;

function signWidgetData(fields: WidgetData, botToken: string): WidgetData & { hash: string } {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${String(fields[key])}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken, 'utf8').digest();
  return { ...fields, hash: createHmac('sha256', secret).update(checkString, 'utf8').digest('hex') };
}

export const telegramChecks: Check[] = [
  {
    id: 'telegram.widget-config',
    tags: ['telegram'],
    description: 'GET /auth/telegram/widget-config answers the bot username and whether a token is set, never the token',
    spec: 'part 4 (Telegram), D3',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.telegram.widgetConfig();
      expectShape(result, envelope(TelegramWidgetConfig), 'D15: the widget configuration');
      expect(!/"botToken"/.test(result.text), 'D3: the bot token is write-only', 'the answer holds botToken', result);
    },
  },
  {
    id: 'telegram.bad-hash',
    tags: ['telegram'],
    description: 'POST /auth/telegram/verify with data whose hash is wrong is 401 invalid_telegram_auth',
    spec: 'part 4 (Telegram verify), D6',
    profile: 'emulator',
    creates: false,
    uses: { clock: 'holds', why: 'dates its data by the emulator clock, just before the target judges it' },
    run: async (ctx) => {
      const { data: config } = expectShape(await ctx.client.telegram.widgetConfig(), envelope(TelegramWidgetConfig), 'D15: the widget configuration');
      if (!config.configured)
        throw new CheckSkip('the tenant has no Telegram bot token, so no Telegram data can be verified (the token is write-only: the suite does not set one)');
      // auth_date from the emulator clock, so only the hash is wrong however far the clock is from real time.
      const body = { id: 1, first_name: 'Conformance', auth_date: Math.floor((await emulatorNow(ctx)) / 1000), hash: 'ab'.repeat(32) };
      expectErrorCode(await ctx.client.telegram.verify(body), 401, 'invalid_telegram_auth', 'part 4: Telegram data is verified');
    },
  },
  {
    id: 'telegram.sign-in',
    tags: ['telegram', 'clock'],
    description:
      "in a tenant of its own with a bot token it set, the widget says configured with the token's bot id; signed data signs a user in, twice the same; data older than 24 h on the emulator clock is 401 telegram_auth_expired naming the times",
    spec: 'part 4 (Telegram verify), part 5.5, D3, D6, D10',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'holds', why: 'dates its data by the emulator clock, just before the target judges it' },
    readsBack: ['updateTenant', 'verifyTelegramAuth'],
    run: async (ctx) => {
      // The run's tenant's token is write-only: a throwaway tenant (control plane) has one the check knows.
      const own = await ownTenant(ctx, 'telegram');
      const before = expectShape(await own.telegram.widgetConfig(), envelope(TelegramWidgetConfig), 'D15: the widget configuration').data;
      expect(!before.configured, 'D3: configured says whether a bot token is set', 'a new tenant without a token is configured');
      const botId = String(7_000_000_000 + Math.floor(Math.random() * 999_999_999));
      const botToken = `${botId}:AAconformance${ctx.runId}TelegramToken`;
      const botUsername = `conf_${ctx.runId}_bot`;
      expectStatus(await own.tenant.update({ settings: { telegram: { botToken, botUsername } } }), 200, 'D3: PATCH /tenant sets the bot token');
      // Kept, not only answered: GET /tenant reads the settings back (the token as botTokenSet only) and the widget acts on them.
      const tenantRead = await own.tenant.get();
      const { telegram } = expectShape(tenantRead, envelope(Tenant), 'D3/D15: the tenant fields').data.settings;
      expectReadBack(telegram, { botUsername, botTokenSet: true }, 'D3: GET /tenant reads back the Telegram settings PATCH sent', tenantRead);
      const config = await own.telegram.widgetConfig();
      const after = expectShape(config, envelope(TelegramWidgetConfig), 'D15: the widget configuration').data;
      expect(after.configured, 'D3: configured says whether a bot token is set', 'configured is false once a token is set', config);
      expect(after.botId === botId, "D15: botId is the token's bot id (before the colon)", `botId ${after.botId}, token of ${botId}`, config);
      expect(after.botUsername === botUsername, 'D3: the widget names the bot PATCH /tenant set', `botUsername ${after.botUsername}`, config);

      const now = await emulatorNow(ctx);
      const person = { id: 100_000 + Math.floor(Math.random() * 900_000), first_name: 'Conformance', last_name: ctx.runId, username: `conf_${ctx.runId}` };
      const signIn = async () => {
        const result = await own.telegram.verify(signWidgetData({ ...person, auth_date: Math.floor(now / 1000) }, botToken));
        expectStatus(result, 200, 'part 4: signed Telegram data signs the user in');
        return { result, data: expectShape(result, envelope(SignIn), 'D15: verify answers { user, session }').data };
      };
      const first = await signIn();
      const wallet = await own.users.getWallet(first.data.session.token);
      expect(wallet.status !== 401, 'D4: the session a Telegram sign-in answers works', `its token is ${wallet.status}`, wallet);
      const second = await signIn();
      expect(
        second.data.user.id === first.data.user.id,
        'part 4: a Telegram account signs in as the same user each time',
        `${second.data.user.id}, first ${first.data.user.id}`,
        second.result,
      );
      // The user the sign-ins made is stored: read by GET, and the only one of the tenant however often it signed in.
      const stored = { id: first.data.user.id, name: `Conformance ${ctx.runId}`, trustLevel: 'basic' };
      const read = await own.users.get(first.data.user.id);
      expectReadBack(
        expectShape(read, envelope(User), 'D15: GET /users/:id').data,
        stored,
        'part 4: GET /users/:id reads the user a Telegram sign-in made',
        read,
      );
      const users = await own.users.list();
      const page = expectShape(users, paginated(User), 'D15: GET /users');
      expect(page.total === 1, 'part 4: two sign-ins of one Telegram account make one user', `the tenant lists ${page.total} users`, users);
      expectReadBack(page.data[0], stored, 'part 4: the listing holds the user a Telegram sign-in made', users);
      // A day and a minute before the emulator's now: only the age is wrong, however far the clock is from real time.
      const stale = await own.telegram.verify(signWidgetData({ ...person, auth_date: Math.floor((now - MAX_AUTH_AGE_MS - 60_000) / 1000) }, botToken));
      expectErrorCode(stale, 401, 'telegram_auth_expired', 'D6: Telegram data older than 24 h on the emulator clock is refused');
      expectClockTimes(stale, now, 'D6/D10: Telegram data the clock judged too old names the emulator and the real time in details');
    },
  },
];
