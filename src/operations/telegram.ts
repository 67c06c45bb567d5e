/** The operations of routes/telegram.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY, SignIn } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { TelegramVerifyBody, TelegramWidgetConfig } from '../schemas/telegram.js';
import { SIGN_IN_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Telegram'];
const security = API_KEY_SECURITY;

export const telegramOperations = {
  verifyTelegramAuth: createRoute({
    method: 'post',
    path: '/verify',
    operationId: 'verifyTelegramAuth',
    tags,
    security,
    summary: 'Verify Telegram auth data',
    description: 'Signs in the user of a Telegram account. With Authorization: Bearer <session>, links the account to that user instead.',
    request: jsonBody(TelegramVerifyBody, EXAMPLES.telegramBody),
    responses: { 200: jsonResponse(envelope(SignIn), 'The user, signed in', { data: EXAMPLES.signIn }), ...errorResponses(409, 410) },
  }),
  getTelegramWidgetConfig: createRoute({
    method: 'get',
    path: '/widget-config',
    operationId: 'getTelegramWidgetConfig',
    tags,
    security,
    summary: 'Get bot configuration for the widget',
    responses: { 200: jsonResponse(envelope(TelegramWidgetConfig), 'The bot the Login Widget uses (never its token)', { data: EXAMPLES.widgetConfig }) },
  }),
};
