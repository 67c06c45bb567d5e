/** /v1/auth/telegram: verify (widget data or Mini App initData) and widget-config. */
import { createRoute } from '@hono/zod-openapi';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SignIn } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { TelegramVerifyBody, TelegramWidgetConfig } from '../schemas/telegram.js';
import { signInView } from '../services/sessions.js';
import { signInWithTelegram, widgetConfig } from '../services/telegram.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Telegram'];
const security = API_KEY_SECURITY;

export function telegramRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/verify',
        operationId: 'verifyTelegramAuth',
        tags,
        security,
        summary: 'Verify Telegram auth data',
        description: 'Signs in the user of a Telegram account. With Authorization: Bearer <session>, links the account to that user instead.',
        request: jsonBody(TelegramVerifyBody),
        responses: { 200: jsonResponse(envelope(SignIn), 'The user, signed in'), ...errorResponses(409, 410) },
      }),
      async (c) => {
        const body = c.req.valid('json');
        const initData = typeof body.initData === 'string' ? body.initData : undefined;
        const { user, session } = await signInWithTelegram(rt, c.get('tenant'), {
          ...(initData === undefined ? { widget: body } : { initData }),
          authorization: c.req.header('authorization'),
        });
        return c.json({ data: signInView(user, session) }, 200, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/widget-config',
        operationId: 'getTelegramWidgetConfig',
        tags,
        security,
        summary: 'Get bot configuration for the widget',
        responses: { 200: jsonResponse(envelope(TelegramWidgetConfig), 'The bot the Login Widget uses (never its token)') },
      }),
      (c) => c.json({ data: widgetConfig(c.get('tenant')) }, 200),
    );
}
