/** The operations of routes/mpc.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse, list, paramExample } from '../schemas/common.js';
import { DeletedShares, KeyShare, RecoverBody, RecoveredKey, StoreShareBody, StoredShare, WalletIdParam } from '../schemas/mpc.js';
import { MPC_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['MPC key management'];
const security = SESSION_SECURITY;
/** The signed-in example user's wallet. */
const walletIdParam = WalletIdParam.extend({ walletId: paramExample(WalletIdParam.shape.walletId, 'walletId', 'path', EXAMPLES.walletId) });

export const mpcOperations = {
  storeKeyShare: createRoute({
    method: 'post',
    path: '/shares',
    operationId: 'storeKeyShare',
    tags,
    security,
    summary: 'Store key share',
    request: jsonBody(StoreShareBody, EXAMPLES.storeBody),
    responses: {
      201: jsonResponse(envelope(StoredShare), 'The stored share (without its bytes)', { data: EXAMPLES.stored }),
      ...errorResponses(404, 409, 410),
    },
  }),
  getKeyShares: createRoute({
    method: 'get',
    path: '/shares/{walletId}',
    operationId: 'getKeyShares',
    tags,
    security,
    summary: 'Retrieve key share',
    request: { params: walletIdParam },
    responses: { 200: jsonResponse(list(KeyShare), "The wallet's own share 1 and every stored share", EXAMPLES.shares), ...errorResponses(403, 404, 410) },
  }),
  deleteKeyShares: createRoute({
    method: 'delete',
    path: '/shares/{walletId}',
    operationId: 'deleteKeyShares',
    tags,
    security,
    summary: 'Delete key shares',
    request: { params: walletIdParam },
    responses: {
      200: jsonResponse(envelope(DeletedShares), 'How many stored shares were deleted', { data: EXAMPLES.deleted }),
      ...errorResponses(403, 404, 410),
    },
  }),
  recoverKey: createRoute({
    method: 'post',
    path: '/recover',
    operationId: 'recoverKey',
    tags,
    security,
    summary: 'Recover key from shares',
    request: jsonBody(RecoverBody, EXAMPLES.recoverBody),
    responses: { 200: jsonResponse(envelope(RecoveredKey), 'The recovered Ed25519 key', { data: EXAMPLES.recovered }), ...errorResponses(403, 404, 410) },
  }),
};
