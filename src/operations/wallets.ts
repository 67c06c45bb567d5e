/** The operations of routes/wallets.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { envelope, errorResponses, optionalJsonBody, jsonResponse } from '../schemas/common.js';
import { ClaimWalletBody, ClaimedWallet, Wallet } from '../schemas/wallets.js';
import { WALLET_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Users'];
const security = SESSION_SECURITY;

export const walletsOperations = {
  createWallet: createRoute({
    method: 'post',
    path: '/',
    operationId: 'createWallet',
    tags,
    security,
    summary: 'Create wallet for the current user',
    request: optionalJsonBody(ClaimWalletBody, EXAMPLES.claimBody),
    responses: {
      201: jsonResponse(envelope(ClaimedWallet), 'The wallet, with the device and recovery shares (only here)', { data: EXAMPLES.claimed }),
      ...errorResponses(409, 410),
    },
  }),
  getWallet: createRoute({
    method: 'get',
    path: '/',
    operationId: 'getWallet',
    tags,
    security,
    summary: "Get the current user's wallet",
    responses: { 200: jsonResponse(envelope(Wallet), 'The wallet', { data: EXAMPLES.wallet }), ...errorResponses(404, 410) },
  }),
};
