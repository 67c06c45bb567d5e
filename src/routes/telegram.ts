/** /v1/auth/telegram: verify (widget data or Mini App initData) and widget-config. */
import { telegramOperations } from '../operations/telegram.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { signInView } from '../services/sessions.js';
import { signInWithTelegram, widgetConfig } from '../services/telegram.js';
import { newRouter } from './router.js';

export function telegramRoutes(rt: Runtime) {
  return newRouter()
    .openapi(telegramOperations.verifyTelegramAuth, async (c) => {
      const body = c.req.valid('json');
      const initData = typeof body.initData === 'string' ? body.initData : undefined;
      const { user, session } = await signInWithTelegram(rt, c.get('tenant'), {
        ...(initData === undefined ? { widget: body } : { initData }),
        authorization: c.req.header('authorization'),
      });
      return c.json({ data: signInView(user, session) }, 200, NO_STORE);
    })
    .openapi(telegramOperations.getTelegramWidgetConfig, (c) => c.json({ data: widgetConfig(c.get('tenant')) }, 200));
}
