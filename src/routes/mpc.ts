/**
 * /v1/mpc: store, retrieve and delete a wallet's key shares; recover its key. All act for the
 * session's user (D4); retrieve, delete and recover sit behind the MFA guard (D5).
 */
import { createRoute } from '@hono/zod-openapi';
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { DeletedShares, KeyShare, RecoverBody, RecoveredKey, StoreShareBody, StoredShare, WalletIdParam } from '../schemas/mpc.js';
import { deleteShares, recoverWalletKey, retrieveShares, storeShare, storedShareView } from '../services/mpc.js';
import { newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['MPC key management'];
const security = SESSION_SECURITY;

export function mpcRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(
      createRoute({
        method: 'post',
        path: '/shares',
        operationId: 'storeKeyShare',
        tags,
        security,
        summary: 'Store key share',
        request: jsonBody(StoreShareBody),
        responses: { 201: jsonResponse(envelope(StoredShare), 'The stored share (without its bytes)'), ...errorResponses(404, 409, 410) },
      }),
      async (c) => c.json({ data: storedShareView(await storeShare(rt, c.get('user'), c.req.valid('json'))) }, 201),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/shares/{walletId}',
        operationId: 'getKeyShares',
        tags,
        security,
        summary: 'Retrieve key share',
        middleware: [requireFreshMfa(rt)] as const,
        request: { params: WalletIdParam },
        responses: { 200: jsonResponse(list(KeyShare), "The wallet's own share 1 and every stored share"), ...errorResponses(403, 404, 410) },
      }),
      (c) => c.json({ data: retrieveShares(rt, c.get('user'), c.req.valid('param').walletId) }, 200, NO_STORE),
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/shares/{walletId}',
        operationId: 'deleteKeyShares',
        tags,
        security,
        summary: 'Delete key shares',
        middleware: [requireFreshMfa(rt)] as const,
        request: { params: WalletIdParam },
        responses: { 200: jsonResponse(envelope(DeletedShares), 'How many stored shares were deleted'), ...errorResponses(403, 404, 410) },
      }),
      async (c) => {
        const { walletId } = c.req.valid('param');
        return c.json({ data: { walletId, deleted: await deleteShares(rt, c.get('user'), walletId) } }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/recover',
        operationId: 'recoverKey',
        tags,
        security,
        summary: 'Recover key from shares',
        middleware: [requireFreshMfa(rt)] as const,
        request: jsonBody(RecoverBody),
        responses: { 200: jsonResponse(envelope(RecoveredKey), 'The recovered Ed25519 key'), ...errorResponses(403, 404, 410) },
      }),
      async (c) => {
        const { walletId, shares } = c.req.valid('json');
        return c.json({ data: await recoverWalletKey(rt, c.get('user'), walletId, shares) }, 200, NO_STORE);
      },
    );
}
