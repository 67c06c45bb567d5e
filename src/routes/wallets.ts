/** /v1/users/me/wallet: claim (POST, once) and read (GET) the signed-in user's wallet (D4, D13). */
import { createRoute } from '@hono/zod-openapi';
import { userSession } from '../middleware/session.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { ClaimWalletBody, ClaimedWallet, Wallet } from '../schemas/wallets.js';
import { claimWallet, getClaimedWallet, walletView } from '../services/wallets.js';
import { newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Users'];
const security = SESSION_SECURITY;

export function walletsRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createWallet',
        tags,
        security,
        summary: 'Create wallet for the current user',
        request: optionalJsonBody(ClaimWalletBody),
        responses: { 201: jsonResponse(envelope(ClaimedWallet), 'The wallet, with the device and recovery shares (only here)'), ...errorResponses(409, 410) },
      }),
      async (c) => c.json({ data: await claimWallet(rt, c.get('user')) }, 201, NO_STORE),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        operationId: 'getWallet',
        tags,
        security,
        summary: "Get the current user's wallet",
        responses: { 200: jsonResponse(envelope(Wallet), 'The wallet'), ...errorResponses(404, 410) },
      }),
      (c) => c.json({ data: walletView(getClaimedWallet(rt, c.get('user')), c.get('user')) }, 200),
    );
}
