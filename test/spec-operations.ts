/**
 * The operations of the spec (docs/service-api.md, part 4 "Endpoints"), kept here so that the
 * repository stands alone: 15 areas, 56 operations, each with the method and the path relative
 * to the base URL (in OpenAPI's `{param}` form), and the operationId the document and the typed
 * client give it. test/openapi.test.ts compares the served document with this catalogue both
 * ways. Change an area, method or path only when the spec changes; an operationId never.
 */

export interface SpecOperation {
  /** The document's operationId; the typed client has a method of this name. */
  operationId: string;
  /** The spec's `### Area` heading, also the operation's tag. */
  area: SpecArea;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** The spec's "Purpose" column, shortened. */
  purpose: string;
}

export const SPEC_AREAS = [
  'Apps',
  'Users',
  'API keys',
  'Webhooks',
  'Passkey/WebAuthn',
  'Telegram',
  'Guest sessions',
  'Delegated sessions',
  'MFA',
  'MPC key management',
  'Custom domains',
  'Tenant',
  'Analytics',
  'Billing',
  'Health',
] as const;

export type SpecArea = (typeof SPEC_AREAS)[number];

const op = (operationId: string, area: SpecArea, method: SpecOperation['method'], path: string, purpose: string): SpecOperation => ({
  operationId,
  area,
  method,
  path,
  purpose,
});

export const SPEC_OPERATIONS: readonly SpecOperation[] = [
  op('listApps', 'Apps', 'GET', '/apps', 'List apps (paginated)'),
  op('createApp', 'Apps', 'POST', '/apps', 'Create app'),
  op('getApp', 'Apps', 'GET', '/apps/{id}', 'Get app'),
  op('updateApp', 'Apps', 'PATCH', '/apps/{id}', 'Update app'),
  op('deleteApp', 'Apps', 'DELETE', '/apps/{id}', 'Delete app'),

  op('listUsers', 'Users', 'GET', '/users', 'List users (paginated)'),
  op('createUser', 'Users', 'POST', '/users', 'Create user'),
  op('getUser', 'Users', 'GET', '/users/{id}', 'Get user'),
  op('createWallet', 'Users', 'POST', '/users/me/wallet', "Create the current user's wallet"),
  op('getWallet', 'Users', 'GET', '/users/me/wallet', "Get the current user's wallet"),

  op('listApiKeys', 'API keys', 'GET', '/api-keys', 'List API keys'),
  op('createApiKey', 'API keys', 'POST', '/api-keys', 'Create API key (value shown once)'),
  op('revokeApiKey', 'API keys', 'DELETE', '/api-keys/{id}', 'Revoke API key'),

  op('listWebhooks', 'Webhooks', 'GET', '/webhooks', 'List webhooks'),
  op('createWebhook', 'Webhooks', 'POST', '/webhooks', 'Create webhook'),
  op('updateWebhook', 'Webhooks', 'PATCH', '/webhooks/{id}', 'Update webhook'),
  op('deleteWebhook', 'Webhooks', 'DELETE', '/webhooks/{id}', 'Delete webhook'),
  op('sendTestEvent', 'Webhooks', 'POST', '/webhooks/{id}/test', 'Send a test event'),
  op('listDeliveries', 'Webhooks', 'GET', '/webhooks/{id}/deliveries', 'List deliveries'),

  op('getPasskeyRegistrationOptions', 'Passkey/WebAuthn', 'POST', '/auth/passkey/register-options', 'Get registration challenge'),
  op('verifyPasskeyRegistration', 'Passkey/WebAuthn', 'POST', '/auth/passkey/register-verify', 'Verify registration'),
  op('getPasskeyLoginOptions', 'Passkey/WebAuthn', 'GET', '/auth/passkey/login-options', 'Get login challenge'),
  op('verifyPasskeyLogin', 'Passkey/WebAuthn', 'POST', '/auth/passkey/login-verify', 'Verify login'),

  op('verifyTelegramAuth', 'Telegram', 'POST', '/auth/telegram/verify', 'Verify Telegram auth data'),
  op('getTelegramWidgetConfig', 'Telegram', 'GET', '/auth/telegram/widget-config', "Get the widget's bot configuration"),

  op('createGuest', 'Guest sessions', 'POST', '/guests', 'Create guest session'),
  op('getGuest', 'Guest sessions', 'GET', '/guests/{id}', 'Get guest session'),
  op('convertGuest', 'Guest sessions', 'POST', '/guests/{id}/convert', 'Convert guest to user'),
  op('expireGuest', 'Guest sessions', 'DELETE', '/guests/{id}', 'Expire session'),
  op('cleanupGuests', 'Guest sessions', 'POST', '/guests/cleanup', 'Bulk expire old sessions'),

  op('createDelegatedSession', 'Delegated sessions', 'POST', '/delegated-sessions', 'Create delegated session'),
  op('getDelegatedSession', 'Delegated sessions', 'GET', '/delegated-sessions/{id}', 'Get session details'),
  op('revokeDelegatedSession', 'Delegated sessions', 'DELETE', '/delegated-sessions/{id}', 'Revoke session'),
  op('executeTransaction', 'Delegated sessions', 'POST', '/delegated-sessions/{id}/execute', 'Execute transaction'),
  op('queryContracts', 'Delegated sessions', 'POST', '/delegated-sessions/{id}/query', 'Query contracts'),

  op('setupMfa', 'MFA', 'POST', '/mfa/setup', 'Start MFA setup'),
  op('verifyMfaSetup', 'MFA', 'POST', '/mfa/verify-setup', 'Complete MFA setup'),
  op('createMfaChallenge', 'MFA', 'POST', '/mfa/challenge', 'Request MFA challenge'),
  op('verifyMfa', 'MFA', 'POST', '/mfa/verify', 'Verify MFA code'),
  op('getMfaStatus', 'MFA', 'GET', '/mfa/status', 'Get MFA status'),
  op('disableMfa', 'MFA', 'DELETE', '/mfa', 'Disable MFA'),

  op('storeKeyShare', 'MPC key management', 'POST', '/mpc/shares', 'Store key share'),
  op('getKeyShares', 'MPC key management', 'GET', '/mpc/shares/{walletId}', 'Retrieve key share'),
  op('deleteKeyShares', 'MPC key management', 'DELETE', '/mpc/shares/{walletId}', 'Delete key shares'),
  op('recoverKey', 'MPC key management', 'POST', '/mpc/recover', 'Recover key from shares'),

  op('registerCustomDomain', 'Custom domains', 'POST', '/custom-domains', 'Register domain'),
  op('verifyCustomDomain', 'Custom domains', 'POST', '/custom-domains/verify', 'Verify DNS ownership'),
  op('removeCustomDomain', 'Custom domains', 'DELETE', '/custom-domains', 'Remove domain'),

  op('getTenant', 'Tenant', 'GET', '/tenant', 'Get current tenant'),
  op('updateTenant', 'Tenant', 'PATCH', '/tenant', 'Update tenant settings'),

  op('getAnalytics', 'Analytics', 'GET', '/analytics', 'Analytics for the period (7d, 30d, 90d)'),

  op('createCheckoutSession', 'Billing', 'POST', '/billing/checkout', 'Create checkout session at the payment provider'),
  op('createPortalSession', 'Billing', 'POST', '/billing/portal', 'Create billing portal session'),
  op('getBillingUsage', 'Billing', 'GET', '/billing/usage', 'Get current usage'),

  op('checkHealth', 'Health', 'GET', '/healthz', 'Health check'),
  op('checkReadiness', 'Health', 'GET', '/readyz', 'Readiness check'),
];

/** An operation of the served document: the spec's, tagged with their area, and the document itself. */
export interface ServedOperation {
  operationId: string;
  tag: string;
  method: SpecOperation['method'];
  path: string;
}

/** GET /openapi.json is not in the spec's tables; DESIGN D3 serves it without a key. */
export const SERVED_OPERATIONS: readonly ServedOperation[] = [
  ...SPEC_OPERATIONS.map(({ operationId, area, method, path }) => ({ operationId, tag: area, method, path })),
  { operationId: 'getOpenApiDocument', tag: 'OpenAPI', method: 'GET', path: '/openapi.json' },
];
