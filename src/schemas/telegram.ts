/** Telegram sign-in (spec part 4; D15): Login Widget fields or Mini App initData. */
import { z } from '@hono/zod-openapi';

const UnixSeconds = z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/, 'a Unix time in seconds')]);

/**
 * The Login Widget's fields as Telegram sends them. Fields beyond the named ones are kept
 * (not stripped) because the data-check-string covers every received field; they are used
 * only for that check and never stored.
 */
export const TelegramWidgetBody = z
  .object({
    id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/, 'a Telegram user id')]),
    first_name: z.string().max(256).optional(),
    last_name: z.string().max(256).optional(),
    username: z.string().max(64).optional(),
    photo_url: z.string().max(2048).optional(),
    auth_date: UnixSeconds,
    hash: z.string().min(1).max(256),
  })
  .catchall(z.union([z.string().max(2048), z.number(), z.boolean()]))
  .openapi('TelegramWidgetData');

export const TelegramInitDataBody = z
  .object({ initData: z.string().min(1).max(16_384).openapi({ description: 'Telegram.WebApp.initData, as received (a query string)' }) })
  .openapi('TelegramInitData');

export const TelegramVerifyBody = z.union([TelegramInitDataBody, TelegramWidgetBody]).openapi('TelegramVerify');

export const TelegramWidgetConfig = z
  .object({
    botUsername: z.string(),
    botId: z.string().nullable().openapi({ description: 'The numeric bot id (the part of the token before the colon; public)' }),
    configured: z.boolean().openapi({ description: 'Whether a bot token is set, so that verify can work' }),
    requestAccess: z.literal('write'),
    scriptUrl: z.string(),
    maxAuthAge: z.string().openapi({ description: 'How old auth_date may be' }),
  })
  .openapi('TelegramWidgetConfig');
