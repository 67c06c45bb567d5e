/**
 * Every operation by operationId: its createRoute() config (operations/<area>.ts) and its
 * path below its base, the area's mount point joined to the config's path. Two tables: the
 * API's below /v1 (OPERATIONS; the areas' mount points are app.ts's) and the control plane's
 * below /_emulator (CONTROL_OPERATIONS, served by one router at CONTROL_BASE_PATH). The typed
 * client is made from them; they import the schemas and zod, nothing of the server.
 */
import { analyticsOperations } from './analytics.js';
import { apiKeysOperations } from './api-keys.js';
import { appsOperations } from './apps.js';
import { billingOperations } from './billing.js';
import { customDomainsOperations } from './custom-domains.js';
import { delegatedSessionsOperations } from './delegated-sessions.js';
import { guestsOperations } from './guests.js';
import { healthOperations } from './health.js';
import { mfaOperations } from './mfa.js';
import { mpcOperations } from './mpc.js';
import { openApiOperations } from './openapi.js';
import { passkeysOperations } from './passkeys.js';
import { telegramOperations } from './telegram.js';
import { tenantOperations } from './tenant.js';
import { usersOperations } from './users.js';
import { walletsOperations } from './wallets.js';
import { webhooksOperations } from './webhooks.js';
import { mount, type Operation } from './mount.js';

export type { Operation };

/** In the order of the OpenAPI document. */
export const OPERATIONS = {
  ...mount('/apps', appsOperations),
  ...mount('/users', usersOperations),
  ...mount('/users/me/wallet', walletsOperations),
  ...mount('/api-keys', apiKeysOperations),
  ...mount('/tenant', tenantOperations),
  ...mount('/mfa', mfaOperations),
  ...mount('/mpc', mpcOperations),
  ...mount('/delegated-sessions', delegatedSessionsOperations),
  ...mount('/guests', guestsOperations),
  ...mount('/auth/telegram', telegramOperations),
  ...mount('/auth/passkey', passkeysOperations),
  ...mount('/webhooks', webhooksOperations),
  ...mount('/custom-domains', customDomainsOperations),
  ...mount('/analytics', analyticsOperations),
  ...mount('/billing', billingOperations),
  ...mount('', healthOperations),
  ...mount('', openApiOperations),
};

export type Operations = typeof OPERATIONS;
export type OperationId = keyof Operations;

export { CONTROL_BASE_PATH, CONTROL_OPERATIONS, type ControlOperationId, type ControlOperations } from './control-plane.js';
