/** /v1/users: list (paginated, `trust_level`, `search`), create, get. /users/me/* comes with sessions. */
import { usersOperations } from '../operations/users.js';
import type { Runtime } from '../runtime.js';
import { createUser, getUser, listUserRecords, userView } from '../services/users.js';
import { jsonAnswer } from '../answers/json-answer.js';
import { JsonText } from '../answers/json-text.js';
import { userEnvelopeText, userViewText } from '../answers/user-json.js';
import { newRouter } from './router.js';

export function usersRoutes(rt: Runtime) {
  return newRouter()
    .openapi(usersOperations.listUsers, (c) => jsonAnswer(c, JsonText.page(listUserRecords(rt, c.get('tenant').id, c.req.valid('query')), userViewText), 200))
    .openapi(usersOperations.createUser, async (c) => {
      const body = c.req.valid('json');
      const user = await createUser(rt, c.get('tenant').id, {
        email: body.email,
        name: body.name ?? null,
        trustLevel: body.trustLevel ?? 'basic',
      });
      return c.json({ data: userView(user) }, 201);
    })
    .openapi(usersOperations.getUser, (c) => jsonAnswer(c, userEnvelopeText(getUser(rt, c.get('tenant').id, c.req.valid('param').id)), 200));
}
