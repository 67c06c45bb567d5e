/**
 * The typed client of the API (issue 9): `createClient({ baseUrl, apiKey })` over undici, or
 * in-process over an app with `fetch: (url, init) => app.request(url, init)`. Each operation
 * of the spec is one method named by its operationId in the OpenAPI document (`listApps`),
 * typed from the zod schemas' z.infer types, and again by area under a short name
 * (`apps.list`). Every method answers an ApiResult (status, headers, text, parsed body, the
 * request sent) and `unwrap()` turns it into the body or a ServiceError. `request()` sends
 * anything, for callers that must.
 */
import type { Page } from '../schemas/common.js';
import type { z } from '@hono/zod-openapi';
import type { ApiKey, CreatedApiKey } from '../schemas/api-keys.js';
import type { App, AppListQuery, CreateAppBody, Deleted, UpdateAppBody } from '../schemas/apps.js';
import type { ErrorEnvelope } from '../schemas/common.js';
import type { ClockState } from '../schemas/control.js';
import type { CustomDomain, DeletedDomain } from '../schemas/custom-domains.js';
import type { CleanupResult, ConvertedGuest, CreatedGuest, Guest } from '../schemas/guests.js';
import type { Health, Ready } from '../schemas/health.js';
import type { OpenApiDocument } from '../schemas/openapi.js';
import type { MfaChallenge, MfaDisabled, MfaEnabled, MfaSetup, MfaStatus, MfaVerified } from '../schemas/mfa.js';
import type { Tenant, UpdateTenantBody } from '../schemas/tenant.js';
import type { CreateUserBody, User, UserListQuery } from '../schemas/users.js';
import type { Analytics } from '../schemas/analytics.js';
import type { BillingUsage, CheckoutSession, PortalSession } from '../schemas/billing.js';
import type { Contract, CreatedDelegatedSession, DelegatedSession, Transaction } from '../schemas/delegated-sessions.js';
import type { DeletedShares, KeyShare, RecoveredKey, StoredShare } from '../schemas/mpc.js';
import type { SignIn } from '../schemas/auth.js';
import type { PasskeyOptions } from '../schemas/passkeys.js';
import type { TelegramWidgetConfig } from '../schemas/telegram.js';
import type { ClaimedWallet, Wallet } from '../schemas/wallets.js';
import type { CreateWebhookBody, Delivery, DeliveryStatus, UpdateWebhookBody, Webhook, WebhookWithSecret } from '../schemas/webhooks.js';
import { send, type ApiResult, type CallOptions, type TransportOptions } from './transport.js';
import { harnessCalls } from './harness.js';

export { matches, type ControlDelivery, type JournalEntry, type RecordedEvent, type RequestFilter, type TestTenant, type WaitOptions } from './harness.js';
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

  /** One method per operation of the API, named by its operationId in the OpenAPI document. */
  const operations = {
    listApps: (query: Partial<Out<typeof AppListQuery>> = {}, extra?: CallOptions) => call<Page<Out<typeof App>>>('GET', '/apps', { ...extra, query }),
    createApp: (body: z.input<typeof CreateAppBody>, extra?: CallOptions) => call<Envelope<Out<typeof App>>>('POST', '/apps', { ...extra, body }),
    getApp: (appId: string, extra?: CallOptions) => call<Envelope<Out<typeof App>>>('GET', `/apps/${id(appId)}`, extra),
    updateApp: (appId: string, body: z.input<typeof UpdateAppBody>, extra?: CallOptions) =>
      call<Envelope<Out<typeof App>>>('PATCH', `/apps/${id(appId)}`, { ...extra, body }),
    deleteApp: (appId: string, extra?: CallOptions) => call<Envelope<Out<typeof Deleted>>>('DELETE', `/apps/${id(appId)}`, extra),

    listUsers: (query: Partial<Out<typeof UserListQuery>> = {}, extra?: CallOptions) => call<Page<Out<typeof User>>>('GET', '/users', { ...extra, query }),
    createUser: (body: z.input<typeof CreateUserBody>, extra?: CallOptions) => call<Envelope<Out<typeof User>>>('POST', '/users', { ...extra, body }),
    getUser: (userId: string, extra?: CallOptions) => call<Envelope<Out<typeof User>>>('GET', `/users/${id(userId)}`, extra),
    createWallet: (session: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof ClaimedWallet>>>('POST', '/users/me/wallet', { ...extra, bearer: session, body: {} }),
    getWallet: (session: string, extra?: CallOptions) => call<Envelope<Out<typeof Wallet>>>('GET', '/users/me/wallet', { ...extra, bearer: session }),

    listApiKeys: (extra?: CallOptions) => call<Envelope<Out<typeof ApiKey>[]>>('GET', '/api-keys', extra),
    createApiKey: (body: { name: string }, extra?: CallOptions) => call<Envelope<Out<typeof CreatedApiKey>>>('POST', '/api-keys', { ...extra, body }),
    revokeApiKey: (keyId: string, extra?: CallOptions) => call<Envelope<Out<typeof ApiKey>>>('DELETE', `/api-keys/${id(keyId)}`, extra),

    listWebhooks: (extra?: CallOptions) => call<Envelope<Out<typeof Webhook>[]>>('GET', '/webhooks', extra),
    createWebhook: (body: z.input<typeof CreateWebhookBody>, extra?: CallOptions) =>
      call<Envelope<Out<typeof WebhookWithSecret>>>('POST', '/webhooks', { ...extra, body }),
    updateWebhook: (webhookId: string, body: z.input<typeof UpdateWebhookBody>, extra?: CallOptions) =>
      call<Envelope<Out<typeof Webhook> & { secret?: string }>>('PATCH', `/webhooks/${id(webhookId)}`, { ...extra, body }),
    deleteWebhook: (webhookId: string, extra?: CallOptions) => call<Envelope<Out<typeof Deleted>>>('DELETE', `/webhooks/${id(webhookId)}`, extra),
    sendTestEvent: (webhookId: string, body: { type?: string } = {}, extra?: CallOptions) =>
      call<Envelope<Out<typeof Delivery>>>('POST', `/webhooks/${id(webhookId)}/test`, { ...extra, body }),
    listDeliveries: (webhookId: string, query: { status?: Out<typeof DeliveryStatus> } = {}, extra?: CallOptions) =>
      call<Envelope<Out<typeof Delivery>[]>>('GET', `/webhooks/${id(webhookId)}/deliveries`, { ...extra, query }),

    getPasskeyRegistrationOptions: (body: { email: string; name?: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof PasskeyOptions>>>('POST', '/auth/passkey/register-options', { ...extra, body }),
    verifyPasskeyRegistration: (body: { challengeId: string; response: unknown }, extra?: CallOptions) =>
      call<Envelope<Out<typeof SignIn>>>('POST', '/auth/passkey/register-verify', { ...extra, body }),
    getPasskeyLoginOptions: (query: { email?: string } = {}, extra?: CallOptions) =>
      call<Envelope<Out<typeof PasskeyOptions>>>('GET', '/auth/passkey/login-options', { ...extra, query }),
    verifyPasskeyLogin: (body: { challengeId: string; response: unknown }, extra?: CallOptions) =>
      call<Envelope<Out<typeof SignIn>>>('POST', '/auth/passkey/login-verify', { ...extra, body }),

    verifyTelegramAuth: (body: Record<string, unknown>, extra?: CallOptions) =>
      call<Envelope<Out<typeof SignIn>>>('POST', '/auth/telegram/verify', { ...extra, body }),
    getTelegramWidgetConfig: (extra?: CallOptions) => call<Envelope<Out<typeof TelegramWidgetConfig>>>('GET', '/auth/telegram/widget-config', extra),

    createGuest: (extra?: CallOptions) => call<Envelope<Out<typeof CreatedGuest>>>('POST', '/guests', { ...extra, body: {} }),
    getGuest: (guestId: string, extra?: CallOptions) => call<Envelope<Out<typeof Guest>>>('GET', `/guests/${id(guestId)}`, extra),
    convertGuest: (guestId: string, body: { email: string; name?: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof ConvertedGuest>>>('POST', `/guests/${id(guestId)}/convert`, { ...extra, body }),
    expireGuest: (guestId: string, extra?: CallOptions) => call<Envelope<Out<typeof Guest>>>('DELETE', `/guests/${id(guestId)}`, extra),
    cleanupGuests: (body: { olderThan: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof CleanupResult>>>('POST', '/guests/cleanup', { ...extra, body }),

    createDelegatedSession: (session: string, body: Record<string, unknown>, extra?: CallOptions) =>
      call<Envelope<Out<typeof CreatedDelegatedSession>>>('POST', '/delegated-sessions', { ...extra, bearer: session, body }),
    getDelegatedSession: (session: string, sessionId: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof DelegatedSession>>>('GET', `/delegated-sessions/${id(sessionId)}`, { ...extra, bearer: session }),
    revokeDelegatedSession: (session: string, sessionId: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof DelegatedSession>>>('DELETE', `/delegated-sessions/${id(sessionId)}`, { ...extra, bearer: session }),
    /** Called by the delegate with the delegated session's own token. */
    executeTransaction: (token: string, sessionId: string, command: Record<string, unknown>, extra?: CallOptions) =>
      call<Envelope<Out<typeof Transaction>>>('POST', `/delegated-sessions/${id(sessionId)}/execute`, { ...extra, bearer: token, body: { command } }),
    /** Called by the delegate with the delegated session's own token. */
    queryContracts: (token: string, sessionId: string, body: { templateId?: string; page?: number; pageSize?: number } = {}, extra?: CallOptions) =>
      call<Page<Out<typeof Contract>>>('POST', `/delegated-sessions/${id(sessionId)}/query`, { ...extra, bearer: token, body }),

    setupMfa: (session: string, extra?: CallOptions) => call<Envelope<Out<typeof MfaSetup>>>('POST', '/mfa/setup', { ...extra, bearer: session, body: {} }),
    verifyMfaSetup: (session: string, code: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof MfaEnabled>>>('POST', '/mfa/verify-setup', { ...extra, bearer: session, body: { code } }),
    createMfaChallenge: (session: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof MfaChallenge>>>('POST', '/mfa/challenge', { ...extra, bearer: session, body: {} }),
    verifyMfa: (session: string, body: { challengeId: string; code: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof MfaVerified>>>('POST', '/mfa/verify', { ...extra, bearer: session, body }),
    getMfaStatus: (session: string, extra?: CallOptions) => call<Envelope<Out<typeof MfaStatus>>>('GET', '/mfa/status', { ...extra, bearer: session }),
    disableMfa: (session: string, extra?: CallOptions) => call<Envelope<Out<typeof MfaDisabled>>>('DELETE', '/mfa', { ...extra, bearer: session }),

    storeKeyShare: (session: string, body: { walletId: string; shareIndex: number; share: string; label?: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof StoredShare>>>('POST', '/mpc/shares', { ...extra, bearer: session, body }),
    getKeyShares: (session: string, walletId: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof KeyShare>[]>>('GET', `/mpc/shares/${id(walletId)}`, { ...extra, bearer: session }),
    deleteKeyShares: (session: string, walletId: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof DeletedShares>>>('DELETE', `/mpc/shares/${id(walletId)}`, { ...extra, bearer: session }),
    recoverKey: (session: string, body: { walletId: string; shares: string[] }, extra?: CallOptions) =>
      call<Envelope<Out<typeof RecoveredKey>>>('POST', '/mpc/recover', { ...extra, bearer: session, body }),

    registerCustomDomain: (domain: string, extra?: CallOptions) =>
      call<Envelope<Out<typeof CustomDomain>>>('POST', '/custom-domains', { ...extra, body: { domain } }),
    verifyCustomDomain: (extra?: CallOptions) => call<Envelope<Out<typeof CustomDomain>>>('POST', '/custom-domains/verify', { ...extra, body: {} }),
    removeCustomDomain: (extra?: CallOptions) => call<Envelope<Out<typeof DeletedDomain>>>('DELETE', '/custom-domains', extra),

    getTenant: (extra?: CallOptions) => call<Envelope<Out<typeof Tenant>>>('GET', '/tenant', extra),
    updateTenant: (body: z.input<typeof UpdateTenantBody>, extra?: CallOptions) => call<Envelope<Out<typeof Tenant>>>('PATCH', '/tenant', { ...extra, body }),

    getAnalytics: (period: '7d' | '30d' | '90d', extra?: CallOptions) =>
      call<Envelope<Out<typeof Analytics>>>('GET', '/analytics', { ...extra, query: { period } }),

    createCheckoutSession: (body: { plan: string; successUrl: string; cancelUrl: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof CheckoutSession>>>('POST', '/billing/checkout', { ...extra, body }),
    createPortalSession: (body: { returnUrl: string }, extra?: CallOptions) =>
      call<Envelope<Out<typeof PortalSession>>>('POST', '/billing/portal', { ...extra, body }),
    getBillingUsage: (extra?: CallOptions) => call<Envelope<Out<typeof BillingUsage>>>('GET', '/billing/usage', extra),

    checkHealth: (extra?: CallOptions) => call<Envelope<Out<typeof Health>>>('GET', '/healthz', extra),
    checkReadiness: (extra?: CallOptions) => call<Envelope<Out<typeof Ready>>>('GET', '/readyz', extra),
    getOpenApiDocument: (extra?: CallOptions) => call<Out<typeof OpenApiDocument>>('GET', '/openapi.json', extra),
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
      /** The same client acting with another API key: a test worker's tenant's, from `tenants.create()`. */
      clientFor: (apiKey: string) => createClient({ ...options, apiKey }),
    },
  };
}

export type Client = ReturnType<typeof createClient>;
