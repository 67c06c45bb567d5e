/** /v1/guests: create, get, convert, delete (expire), cleanup (bulk expire). */
import { parseDuration } from '../duration.js';
import { validationError } from '../errors.js';
import { guestsOperations } from '../operations/guests.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { cleanupGuests, convertGuest, createGuest, deleteGuest, getGuest, guestView } from '../services/guests.js';
import { userView } from '../services/users.js';
import { newRouter } from './router.js';

export function guestsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(guestsOperations.createGuest, async (c) => {
      const { guest, user, session } = await createGuest(rt, c.get('tenant'));
      return c.json({ data: { ...guestView(rt, guest), user: userView(user), session } }, 201, NO_STORE);
    })
    .openapi(guestsOperations.cleanupGuests, async (c) => {
      const { olderThan } = c.req.valid('json');
      const ms = parseDuration(olderThan);
      if (ms === undefined) throw validationError('The request body is not valid', [{ path: 'olderThan', message: 'not a duration', in: 'body' }]);
      return c.json({ data: { expired: await cleanupGuests(rt, c.get('tenant').id, ms) } }, 200);
    })
    .openapi(guestsOperations.getGuest, (c) => c.json({ data: guestView(rt, getGuest(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200))
    .openapi(guestsOperations.convertGuest, async (c) => {
      const { guest, user, session } = await convertGuest(rt, c.get('tenant'), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ data: { user: userView(user), session, guest: guestView(rt, guest) } }, 200, NO_STORE);
    })
    .openapi(guestsOperations.expireGuest, async (c) =>
      c.json({ data: guestView(rt, await deleteGuest(rt, c.get('tenant').id, c.req.valid('param').id)) }, 200),
    );
}
