/** The operations of routes/mpc.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { DeletedShares, KeyShare, RecoverBody, RecoveredKey, StoreShareBody, StoredShare, WalletIdParam } from '../schemas/mpc.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['MPC key management'];
const security = SESSION_SECURITY;

export const mpcOperations = {
  storeKeyShare: createRoute({
    method: 'post',
    path: '/shares',
    operationId: 'storeKeyShare',
    tags,
    security,
    summary: 'Store key share',
    request: jsonBody(StoreShareBody),
    responses: { 201: jsonResponse(envelope(StoredShare), 'The stored share (without its bytes)'), ...errorResponses(404, 409, 410) },
  }),
  getKeyShares: createRoute({
    method: 'get',
    path: '/shares/{walletId}',
    operationId: 'getKeyShares',
    tags,
    security,
    summary: 'Retrieve key share',
    request: { params: WalletIdParam },
    responses: { 200: jsonResponse(list(KeyShare), "The wallet's own share 1 and every stored share"), ...errorResponses(403, 404, 410) },
  }),
  deleteKeyShares: createRoute({
    method: 'delete',
    path: '/shares/{walletId}',
    operationId: 'deleteKeyShares',
    tags,
    security,
    summary: 'Delete key shares',
    request: { params: WalletIdParam },
    responses: { 200: jsonResponse(envelope(DeletedShares), 'How many stored shares were deleted'), ...errorResponses(403, 404, 410) },
  }),
  recoverKey: createRoute({
    method: 'post',
    path: '/recover',
    operationId: 'recoverKey',
    tags,
    security,
    summary: 'Recover key from shares',
    request: jsonBody(RecoverBody),
    responses: { 200: jsonResponse(envelope(RecoveredKey), 'The recovered Ed25519 key'), ...errorResponses(403, 404, 410) },
  }),
};
