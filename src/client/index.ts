/**
 * The typed client of the API: `createClient({ baseUrl, apiKey })` over undici, or
 * in-process over an app with `fetch: (url, init) => app.request(url, init)`. Each operation
 * of the spec is one method named by its operationId in the OpenAPI document (`listApps`),
 * made from the route's createRoute() config (operations.ts), and again by area under a short
 * name (`apps.list`). Every method answers an ApiResult (status, headers, text, parsed body,
 * the request sent) and `unwrap()` turns it into the body or a ServiceError. `request()` sends
 * anything, for callers that must.
 */
import type { z } from '@hono/zod-openapi';
import type { ErrorEnvelope, Page } from '../schemas/common.js';
import type { ExecuteBody } from '../schemas/delegated-sessions.js';
import type { LoginVerifyBody, RegisterVerifyBody } from '../schemas/passkeys.js';
import { createControlClient } from './control.js';
import { send, type ApiResult, type CallOptions, type TransportOptions } from './transport.js';
import { OPERATIONS } from '../operations/index.js';
import { callsOf } from './operations.js';

export { createControlClient, type ControlClient, type ControlClientOptions } from './control.js';
export {
  matches,
  type ControlDelivery,
  type DeliveryWaited,
  type EventWaited,
  type JournalEntry,
  type RecordedEvent,
  type RequestFilter,
  type TestTenant,
  type WaitOptions,
} from './harness.js';
export type { SnapshotInfo } from './control.js';
export {
  ServiceError,
  unwrap,
  type ApiResult,
  type CallOptions,
  type FetchAnswer,
  type FetchLike,
  type Failure,
  type Success,
  type SentRequest,
} from './transport.js';

/** `{ data }` (spec part 2). */
export interface Envelope<T> {
  data: T;
}
/** The paginated envelope (spec part 2). */
export type { Page };
export type ErrorBody = z.infer<typeof ErrorEnvelope>;

type R<T> = Promise<ApiResult<T>>;

export interface ClientOptions extends TransportOptions {
  /** Base URL ending in the version segment, e.g. http://127.0.0.1:4010/v1. */
  baseUrl: string;
}

/** Builds a client; `extra` options of each method (headers, another key, a signal) pass through. */
export function createClient(options: ClientOptions) {
  const call = <T>(method: string, path: string, extra: CallOptions = {}): R<T> => send<T>(options, method, path, extra);

  const derived = callsOf(OPERATIONS, call);
  /** One method per operation of the API, named by its operationId in the OpenAPI document. */
  const operations = {
    ...derived,
    // A passkey's credential goes through as the authenticator made it; the server checks its shape.
    verifyPasskeyRegistration: (body: { challengeId: string; response: unknown }, extra?: CallOptions) =>
      derived.verifyPasskeyRegistration(body as z.input<typeof RegisterVerifyBody>, extra),
    verifyPasskeyLogin: (body: { challengeId: string; response: unknown }, extra?: CallOptions) =>
      derived.verifyPasskeyLogin(body as z.input<typeof LoginVerifyBody>, extra),
    // Four calls take their one field rather than the body or query around it.
    verifyMfaSetup: (session: string, code: string, extra?: CallOptions) => derived.verifyMfaSetup(session, { code }, extra),
    registerCustomDomain: (domain: string, extra?: CallOptions) => derived.registerCustomDomain({ domain }, extra),
    getAnalytics: (period: '7d' | '30d' | '90d', extra?: CallOptions) => derived.getAnalytics({ period }, extra),
    /** Called by the delegate with the delegated session's own token. */
    executeTransaction: (token: string, sessionId: string, command: z.input<typeof ExecuteBody>['command'], extra?: CallOptions) =>
      derived.executeTransaction(token, sessionId, { command }, extra),
  };
  const o = operations;

  return {
    options,
    /** Any method and path below the base URL (or an absolute URL). */
    request: <T = unknown>(method: string, path: string, extra?: CallOptions): R<T> => call<T>(method, path, extra),
    ...operations,
    // The same methods grouped by area, under shorter names.
    apps: { list: o.listApps, create: o.createApp, get: o.getApp, update: o.updateApp, delete: o.deleteApp },
    users: { list: o.listUsers, create: o.createUser, get: o.getUser, createWallet: o.createWallet, getWallet: o.getWallet },
    apiKeys: { list: o.listApiKeys, create: o.createApiKey, revoke: o.revokeApiKey },
    webhooks: {
      list: o.listWebhooks,
      create: o.createWebhook,
      update: o.updateWebhook,
      delete: o.deleteWebhook,
      test: o.sendTestEvent,
      deliveries: o.listDeliveries,
    },
    guests: { create: o.createGuest, get: o.getGuest, convert: o.convertGuest, expire: o.expireGuest, cleanup: o.cleanupGuests },
    mfa: {
      setup: o.setupMfa,
      verifySetup: o.verifyMfaSetup,
      challenge: o.createMfaChallenge,
      verify: o.verifyMfa,
      status: o.getMfaStatus,
      disable: o.disableMfa,
    },
    customDomains: { register: o.registerCustomDomain, verify: o.verifyCustomDomain, remove: o.removeCustomDomain },
    passkeys: {
      registerOptions: o.getPasskeyRegistrationOptions,
      registerVerify: o.verifyPasskeyRegistration,
      loginOptions: o.getPasskeyLoginOptions,
      loginVerify: o.verifyPasskeyLogin,
    },
    telegram: { verify: o.verifyTelegramAuth, widgetConfig: o.getTelegramWidgetConfig },
    delegatedSessions: {
      create: o.createDelegatedSession,
      get: o.getDelegatedSession,
      revoke: o.revokeDelegatedSession,
      execute: o.executeTransaction,
      query: o.queryContracts,
    },
    mpc: { storeShare: o.storeKeyShare, getShares: o.getKeyShares, deleteShares: o.deleteKeyShares, recover: o.recoverKey },
    analytics: { get: o.getAnalytics },
    billing: { checkout: o.createCheckoutSession, portal: o.createPortalSession, usage: o.getBillingUsage },
    tenant: { get: o.getTenant, update: o.updateTenant },
    health: { healthz: o.checkHealth, readyz: o.checkReadiness },
    /** The emulator's control plane (D10, D11), at the base URL's origin: control.ts. */
    emulator: {
      ...createControlClient(options),
      /** The same client acting with another API key: a test worker's tenant's, from `tenants.create()`. */
      clientFor: (apiKey: string) => createClient({ ...options, apiKey }),
    },
  };
}

export type Client = ReturnType<typeof createClient>;
