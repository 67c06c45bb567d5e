/**
 * Every operation by operationId: its createRoute() config (operations/<area>.ts) and its
 * path below its base, the area's mount point joined to the config's path. Two tables: the
 * API's below /v1 (OPERATIONS; the areas' mount points are app.ts's) and the control plane's
 * below /_emulator (CONTROL_OPERATIONS, served by one router at CONTROL_BASE_PATH). The typed
 * client is made from them; they import the schemas and zod, nothing of the server.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import { analyticsOperations } from './analytics.js';
import { apiKeysOperations } from './api-keys.js';
import { appsOperations } from './apps.js';
import { billingOperations } from './billing.js';
import { controlOperations } from './control.js';
import { harnessOperations } from './control-harness.js';
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

/** One operation: its config, and its method and path as a call sends them (`GET`, `/apps/{id}`). */
export interface Operation<C extends RouteConfig = RouteConfig> {
  config: C;
  method: string;
  path: string;
}

/** An area's operations mounted at `base` (`/apps`; '' for those at the root of /v1). */
function mount<O extends Record<string, RouteConfig>>(base: string, operations: O): { [K in keyof O]: Operation<O[K]> } {
  const mounted: Record<string, Operation> = {};
  for (const [operationId, config] of Object.entries(operations)) {
    mounted[operationId] = { config, method: config.method.toUpperCase(), path: config.path === '/' ? base : `${base}${config.path}` };
  }
  return mounted as { [K in keyof O]: Operation<O[K]> };
}

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

export { CONTROL_BASE_PATH } from './control.js';

export type Operations = typeof OPERATIONS;
export type OperationId = keyof Operations;

/** The control plane's operations, in the order of its OpenAPI document. */
export const CONTROL_OPERATIONS = {
  ...mount('', controlOperations),
  ...mount('', harnessOperations),
};

export type ControlOperations = typeof CONTROL_OPERATIONS;
export type ControlOperationId = keyof ControlOperations;
