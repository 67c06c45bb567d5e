/**
 * /v1/mpc: store, retrieve and delete a wallet's key shares; recover its key. All act for the
 * session's user (D4); retrieve, delete and recover sit behind the MFA guard (D5).
 */
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import { mpcOperations } from '../operations/mpc.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { deleteShares, recoverWalletKey, retrieveShares, storeShare, storedShareView } from '../services/mpc.js';
import { newRouter } from './router.js';

export function mpcRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(mpcOperations.storeKeyShare, async (c) => c.json({ data: storedShareView(await storeShare(rt, c.get('user'), c.req.valid('json'))) }, 201))
    .openapi({ ...mpcOperations.getKeyShares, middleware: [requireFreshMfa(rt)] as const }, (c) =>
      c.json({ data: retrieveShares(rt, c.get('user'), c.req.valid('param').walletId) }, 200, NO_STORE),
    )
    .openapi({ ...mpcOperations.deleteKeyShares, middleware: [requireFreshMfa(rt)] as const }, async (c) => {
      const { walletId } = c.req.valid('param');
      return c.json({ data: { walletId, deleted: await deleteShares(rt, c.get('user'), walletId) } }, 200);
    })
    .openapi({ ...mpcOperations.recoverKey, middleware: [requireFreshMfa(rt)] as const }, async (c) => {
      const { walletId, shares } = c.req.valid('json');
      return c.json({ data: await recoverWalletKey(rt, c.get('user'), walletId, shares) }, 200, NO_STORE);
    });
}
