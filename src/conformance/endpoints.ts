/**
 * Every endpoint of spec part 4, as data: the x-api-key checks run over all of them, so
 * every endpoint of the spec is in at least one check. Path parameters get well-formed ids
 * that no deployment holds (a 401 must come before any lookup).
 */

export interface SpecEndpoint {
  /** The spec's area name, as in the tags. */
  area: string;
  /** Short operation name for the check id: `list`, `create`, `register-options`, … */
  op: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
}

const id = (prefix: string): string => `${prefix}_conformance0000000000000`;

export const SPEC_ENDPOINTS: readonly SpecEndpoint[] = [
  { area: 'apps', op: 'list', method: 'GET', path: '/apps' },
  { area: 'apps', op: 'create', method: 'POST', path: '/apps' },
  { area: 'apps', op: 'get', method: 'GET', path: `/apps/${id('app')}` },
  { area: 'apps', op: 'update', method: 'PATCH', path: `/apps/${id('app')}` },
  { area: 'apps', op: 'delete', method: 'DELETE', path: `/apps/${id('app')}` },
  { area: 'users', op: 'list', method: 'GET', path: '/users' },
  { area: 'users', op: 'create', method: 'POST', path: '/users' },
  { area: 'users', op: 'get', method: 'GET', path: `/users/${id('usr')}` },
  { area: 'users', op: 'create-wallet', method: 'POST', path: '/users/me/wallet' },
  { area: 'users', op: 'get-wallet', method: 'GET', path: '/users/me/wallet' },
  { area: 'api-keys', op: 'list', method: 'GET', path: '/api-keys' },
  { area: 'api-keys', op: 'create', method: 'POST', path: '/api-keys' },
  { area: 'api-keys', op: 'revoke', method: 'DELETE', path: `/api-keys/${id('key')}` },
  { area: 'webhooks', op: 'list', method: 'GET', path: '/webhooks' },
  { area: 'webhooks', op: 'create', method: 'POST', path: '/webhooks' },
  { area: 'webhooks', op: 'update', method: 'PATCH', path: `/webhooks/${id('whk')}` },
  { area: 'webhooks', op: 'delete', method: 'DELETE', path: `/webhooks/${id('whk')}` },
  { area: 'webhooks', op: 'test', method: 'POST', path: `/webhooks/${id('whk')}/test` },
  { area: 'webhooks', op: 'deliveries', method: 'GET', path: `/webhooks/${id('whk')}/deliveries` },
  { area: 'passkeys', op: 'register-options', method: 'POST', path: '/auth/passkey/register-options' },
  { area: 'passkeys', op: 'register-verify', method: 'POST', path: '/auth/passkey/register-verify' },
  { area: 'passkeys', op: 'login-options', method: 'GET', path: '/auth/passkey/login-options' },
  { area: 'passkeys', op: 'login-verify', method: 'POST', path: '/auth/passkey/login-verify' },
  { area: 'telegram', op: 'verify', method: 'POST', path: '/auth/telegram/verify' },
  { area: 'telegram', op: 'widget-config', method: 'GET', path: '/auth/telegram/widget-config' },
  { area: 'guests', op: 'create', method: 'POST', path: '/guests' },
  { area: 'guests', op: 'get', method: 'GET', path: `/guests/${id('gst')}` },
  { area: 'guests', op: 'convert', method: 'POST', path: `/guests/${id('gst')}/convert` },
  { area: 'guests', op: 'expire', method: 'DELETE', path: `/guests/${id('gst')}` },
  { area: 'guests', op: 'cleanup', method: 'POST', path: '/guests/cleanup' },
  { area: 'delegated-sessions', op: 'create', method: 'POST', path: '/delegated-sessions' },
  { area: 'delegated-sessions', op: 'get', method: 'GET', path: `/delegated-sessions/${id('dsn')}` },
  { area: 'delegated-sessions', op: 'revoke', method: 'DELETE', path: `/delegated-sessions/${id('dsn')}` },
  { area: 'delegated-sessions', op: 'execute', method: 'POST', path: `/delegated-sessions/${id('dsn')}/execute` },
  { area: 'delegated-sessions', op: 'query', method: 'POST', path: `/delegated-sessions/${id('dsn')}/query` },
  { area: 'mfa', op: 'setup', method: 'POST', path: '/mfa/setup' },
  { area: 'mfa', op: 'verify-setup', method: 'POST', path: '/mfa/verify-setup' },
  { area: 'mfa', op: 'challenge', method: 'POST', path: '/mfa/challenge' },
  { area: 'mfa', op: 'verify', method: 'POST', path: '/mfa/verify' },
  { area: 'mfa', op: 'status', method: 'GET', path: '/mfa/status' },
  { area: 'mfa', op: 'disable', method: 'DELETE', path: '/mfa' },
  { area: 'mpc', op: 'store-share', method: 'POST', path: '/mpc/shares' },
  { area: 'mpc', op: 'get-share', method: 'GET', path: `/mpc/shares/${id('wal')}` },
  { area: 'mpc', op: 'delete-shares', method: 'DELETE', path: `/mpc/shares/${id('wal')}` },
  { area: 'mpc', op: 'recover', method: 'POST', path: '/mpc/recover' },
  { area: 'custom-domains', op: 'register', method: 'POST', path: '/custom-domains' },
  { area: 'custom-domains', op: 'verify', method: 'POST', path: '/custom-domains/verify' },
  { area: 'custom-domains', op: 'remove', method: 'DELETE', path: '/custom-domains' },
  { area: 'tenant', op: 'get', method: 'GET', path: '/tenant' },
  { area: 'tenant', op: 'update', method: 'PATCH', path: '/tenant' },
  { area: 'analytics', op: 'get', method: 'GET', path: '/analytics?period=7d' },
  { area: 'billing', op: 'checkout', method: 'POST', path: '/billing/checkout' },
  { area: 'billing', op: 'portal', method: 'POST', path: '/billing/portal' },
  { area: 'billing', op: 'usage', method: 'GET', path: '/billing/usage' },
];
