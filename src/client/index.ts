/**
 * The typed client of the API (issue 9): `createClient({ baseUrl, apiKey })` over undici, or
 * in-process over an app with `fetch: (url, init) => app.request(url, init)`. Each operation
 * of the spec is one method named by its operationId in the OpenAPI document (`listApps`),
 * made from the route's createRoute() config (operations.ts), and again by area under a short
 * name (`apps.list`). Every method answers an ApiResult (status, headers, text, parsed body,
 * the request sent) and `unwrap()` turns it into the body or a ServiceError. `request()` sends
 * anything, for callers that must.
 */
import type { z } from '@hono/zod-openapi';
import type { ErrorEnvelope, Page } from '../schemas/common.js';
import type { ClockState } from '../schemas/control.js';
import type { ExecuteBody } from '../schemas/delegated-sessions.js';
import type { LoginVerifyBody, RegisterVerifyBody } from '../schemas/passkeys.js';
import type { Delivery } from '../schemas/webhooks.js';
import { send, type ApiResult, type CallOptions, type TransportOptions } from './transport.js';
import { harnessCalls } from './harness.js';
import { snapshotCalls } from './snapshots.js';
import { operationCalls } from './operations.js';

export { matches, type ControlDelivery, type JournalEntry, type RecordedEvent, type RequestFilter, type TestTenant, type WaitOptions } from './harness.js';
export type { SnapshotInfo } from './snapshots.js';
export { ServiceError, unwrap, type ApiResult, type CallOptions, type FetchLike, type Failure, type Success, type SentRequest } from './transport.js';

/** `{ data }` (spec part 2). */
export interface Envelope<T> {
  data: T;
}
/** The paginated envelope (spec part 2). */
export type { Page };
export type ErrorBody = z.infer<typeof ErrorEnvelope>;

type Out<T extends z.ZodType> = z.infer<T>;
type R<T> = Promise<ApiResult<T>>;

export interface ClientOptions extends TransportOptions {
  /** Base URL ending in the version segment, e.g. http://127.0.0.1:4010/v1. */
  baseUrl: string;
}

/** Builds a client; `extra` options of each method (headers, another key, a signal) pass through. */
export function createClient(options: ClientOptions) {
  const call = <T>(method: string, path: string, extra: CallOptions = {}): R<T> => send<T>(options, method, path, extra);
  const id = (value: string): string => encodeURIComponent(value);
  const controlBase = new URL(options.baseUrl).origin;
  const control = <T>(method: string, path: string, extra: CallOptions = {}): R<T> =>
    send<T>({ ...options, baseUrl: `${controlBase}/_emulator`, apiKey: undefined }, method, path, extra);

  const derived = operationCalls(call);
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
    /** The emulator's control plane (D10, D11), at the base URL's origin. */
    emulator: {
      request: <T = unknown>(method: string, path: string, extra?: CallOptions): R<T> => control<T>(method, path, extra),
      health: (extra?: CallOptions) => control<Envelope<Record<string, unknown>>>('GET', '/health', extra),
      clock: (extra?: CallOptions) => control<Envelope<Out<typeof ClockState>>>('GET', '/clock', extra),
      setClock: (body: { now?: string; speed?: number }, extra?: CallOptions) =>
        control<Envelope<Out<typeof ClockState>>>('POST', '/clock', { ...extra, body }),
      advance: (by: string, extra?: CallOptions) =>
        control<Envelope<Out<typeof ClockState> & { fired: number }>>('POST', '/clock/advance', { ...extra, body: { by } }),
      events: (query: { type?: string; tenant?: string; limit?: number } = {}, extra?: CallOptions) =>
        control<Envelope<Array<Record<string, unknown>>>>('GET', '/events', { ...extra, query }),
      dlq: (extra?: CallOptions) => control<Envelope<Array<Out<typeof Delivery> & { tenantId: string }>>>('GET', '/dlq', extra),
      retryDelivery: (deliveryId: string, extra?: CallOptions) =>
        control<Envelope<Out<typeof Delivery> & { tenantId: string }>>('POST', `/deliveries/${id(deliveryId)}/retry`, { ...extra, body: {} }),
      ...harnessCalls(control),
      /** Named snapshots of the whole state: save, list, get, restore, delete. */
      snapshots: snapshotCalls(control),
      /** The same client acting with another API key: a test worker's tenant's, from `tenants.create()`. */
      clientFor: (apiKey: string) => createClient({ ...options, apiKey }),
    },
  };
}

export type Client = ReturnType<typeof createClient>;
