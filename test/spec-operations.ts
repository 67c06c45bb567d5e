/**
 * The operations of the spec (spec/service-api.md, part 4 "Endpoints"), kept here so that the
 * repository stands alone: 15 areas, 56 operations, each with the method and the path relative
 * to the base URL (in OpenAPI's `{param}` form). test/openapi.test.ts compares the served
 * document with this catalogue both ways. Change it only when the spec changes.
 */

export interface SpecOperation {
  /** The spec's `### Area` heading. */
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

const op = (area: SpecArea, method: SpecOperation['method'], path: string, purpose: string): SpecOperation => ({ area, method, path, purpose });

export const SPEC_OPERATIONS: readonly SpecOperation[] = [
  op('Apps', 'GET', '/apps', 'List apps (paginated)'),
  op('Apps', 'POST', '/apps', 'Create app'),
  op('Apps', 'GET', '/apps/{id}', 'Get app'),
  op('Apps', 'PATCH', '/apps/{id}', 'Update app'),
  op('Apps', 'DELETE', '/apps/{id}', 'Delete app'),

  op('Users', 'GET', '/users', 'List users (paginated)'),
  op('Users', 'POST', '/users', 'Create user'),
  op('Users', 'GET', '/users/{id}', 'Get user'),
  op('Users', 'POST', '/users/me/wallet', 'Create the current user\'s wallet'),
  op('Users', 'GET', '/users/me/wallet', 'Get the current user\'s wallet'),

  op('API keys', 'GET', '/api-keys', 'List API keys'),
  op('API keys', 'POST', '/api-keys', 'Create API key (value shown once)'),
  op('API keys', 'DELETE', '/api-keys/{id}', 'Revoke API key'),

  op('Webhooks', 'GET', '/webhooks', 'List webhooks'),
  op('Webhooks', 'POST', '/webhooks', 'Create webhook'),
  op('Webhooks', 'PATCH', '/webhooks/{id}', 'Update webhook'),
  op('Webhooks', 'DELETE', '/webhooks/{id}', 'Delete webhook'),
  op('Webhooks', 'POST', '/webhooks/{id}/test', 'Send a test event'),
  op('Webhooks', 'GET', '/webhooks/{id}/deliveries', 'List deliveries'),

  op('Passkey/WebAuthn', 'POST', '/auth/passkey/register-options', 'Get registration challenge'),
  op('Passkey/WebAuthn', 'POST', '/auth/passkey/register-verify', 'Verify registration'),
  op('Passkey/WebAuthn', 'GET', '/auth/passkey/login-options', 'Get login challenge'),
  op('Passkey/WebAuthn', 'POST', '/auth/passkey/login-verify', 'Verify login'),

  op('Telegram', 'POST', '/auth/telegram/verify', 'Verify Telegram auth data'),
  op('Telegram', 'GET', '/auth/telegram/widget-config', 'Get the widget\'s bot configuration'),

  op('Guest sessions', 'POST', '/guests', 'Create guest session'),
  op('Guest sessions', 'GET', '/guests/{id}', 'Get guest session'),
  op('Guest sessions', 'POST', '/guests/{id}/convert', 'Convert guest to user'),
  op('Guest sessions', 'DELETE', '/guests/{id}', 'Expire session'),
  op('Guest sessions', 'POST', '/guests/cleanup', 'Bulk expire old sessions'),

  op('Delegated sessions', 'POST', '/delegated-sessions', 'Create delegated session'),
  op('Delegated sessions', 'GET', '/delegated-sessions/{id}', 'Get session details'),
  op('Delegated sessions', 'DELETE', '/delegated-sessions/{id}', 'Revoke session'),
  op('Delegated sessions', 'POST', '/delegated-sessions/{id}/execute', 'Execute transaction'),
  op('Delegated sessions', 'POST', '/delegated-sessions/{id}/query', 'Query contracts'),

  op('MFA', 'POST', '/mfa/setup', 'Start MFA setup'),
  op('MFA', 'POST', '/mfa/verify-setup', 'Complete MFA setup'),
  op('MFA', 'POST', '/mfa/challenge', 'Request MFA challenge'),
  op('MFA', 'POST', '/mfa/verify', 'Verify MFA code'),
  op('MFA', 'GET', '/mfa/status', 'Get MFA status'),
  op('MFA', 'DELETE', '/mfa', 'Disable MFA'),

  op('MPC key management', 'POST', '/mpc/shares', 'Store key share'),
  op('MPC key management', 'GET', '/mpc/shares/{walletId}', 'Retrieve key share'),
  op('MPC key management', 'DELETE', '/mpc/shares/{walletId}', 'Delete key shares'),
  op('MPC key management', 'POST', '/mpc/recover', 'Recover key from shares'),

  op('Custom domains', 'POST', '/custom-domains', 'Register domain'),
  op('Custom domains', 'POST', '/custom-domains/verify', 'Verify DNS ownership'),
  op('Custom domains', 'DELETE', '/custom-domains', 'Remove domain'),

  op('Tenant', 'GET', '/tenant', 'Get current tenant'),
  op('Tenant', 'PATCH', '/tenant', 'Update tenant settings'),

  op('Analytics', 'GET', '/analytics', 'Analytics for the period (7d, 30d, 90d)'),

  op('Billing', 'POST', '/billing/checkout', 'Create checkout session at the payment provider'),
  op('Billing', 'POST', '/billing/portal', 'Create billing portal session'),
  op('Billing', 'GET', '/billing/usage', 'Get current usage'),

  op('Health', 'GET', '/healthz', 'Health check'),
  op('Health', 'GET', '/readyz', 'Readiness check'),
];
