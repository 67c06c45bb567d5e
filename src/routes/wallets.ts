/** /v1/users/me/wallet: claim (POST, once) and read (GET) the signed-in user's wallet (D4, D13). */
import { userSession } from '../middleware/session.js';
import { walletsOperations } from '../operations/wallets.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { claimWallet, getClaimedWallet, walletView } from '../services/wallets.js';
import { newRouter } from './router.js';

export function walletsRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(walletsOperations.createWallet, async (c) => c.json({ data: await claimWallet(rt, c.get('user')) }, 201, NO_STORE))
    .openapi(walletsOperations.getWallet, (c) => c.json({ data: walletView(getClaimedWallet(rt, c.get('user')), c.get('user')) }, 200));
}
