/**
 * Telegram sign-in (spec part 4; DESIGN D3, D6, D15): the widget configuration never shows the
 * bot token, and data with a wrong hash is refused.
 */
import { envelope } from '../../schemas/common.js';
import { TelegramWidgetConfig } from '../../schemas/telegram.js';
import { CheckSkip, expect, expectShape } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';
import { emulatorNow } from './sessions.js';

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
];
