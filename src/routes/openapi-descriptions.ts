/**
 * A description for every operation of the OpenAPI document that does not declare its own in
 * its createRoute() (spectral's operation-description), by operationId. Kept in one
 * table beside the document rather than spread over the area routers, so the document's prose
 * reads as one text; test/openapi-gaps.test.ts checks that every operation has a description
 * and that every entry here names an operation that needs it.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  checkHealth: 'Answers 200 while the process serves requests. Needs no API key and is never rate-limited.',
  checkReadiness: 'Answers 200 once the store is open and can be written, 503 while it cannot. Needs no API key.',

  listApps: "The tenant's apps, newest first, a page at a time; `search` matches the name.",
  createApp: 'Creates an app of the tenant. `allowedOrigins` are origins such as http://localhost:5173 (scheme, host, optional port).',
  getApp: "One app of the tenant; another tenant's app is 404, never 403.",
  updateApp: 'Changes the fields sent and keeps the others; a request without a body changes nothing and answers the app.',
  deleteApp: 'Deletes the app; 404 when it does not exist or belongs to another tenant.',

  createWallet:
    "Creates the signed-in user's wallet (Authorization: Bearer <session>). The device and recovery key shares are answered here only, once. The body may be left out.",
  getWallet: "The signed-in user's wallet, without its key shares; 404 before one is created.",
  listUsers: "The tenant's users, newest first, a page at a time; filter by `trust_level`, match `search` against e-mail and name.",
  createUser: 'Creates a user with a ledger party of its own and emits user.created; 409 conflict when the e-mail is taken in the tenant.',
  getUser: "One user of the tenant; another tenant's user is 404.",

  listApiKeys: "The tenant's API keys with their prefix and last four characters; the key value itself is never listed.",
  createApiKey: 'Creates an API key for the tenant and emits api_key.created. The key value is in this answer only: store it now.',
  revokeApiKey: 'Revokes the key at once: a request with it then answers 401 invalid_api_key. Emits api_key.revoked.',

  getTenant: 'The tenant of the API key: its name, plan, limits and settings (the Telegram bot token is never answered).',
  updateTenant: 'Changes the name or the settings sent and keeps the rest; a request without a body changes nothing and answers the tenant.',

  setupMfa: 'Starts TOTP setup for the signed-in user: the secret, an otpauth:// URI and a QR code. MFA is on only after verify-setup.',
  verifyMfaSetup: 'Turns MFA on with a current code from the authenticator and answers 10 one-time recovery codes, once. Emits mfa.enabled.',
  createMfaChallenge: 'Opens a challenge for 5 minutes; answers 429 mfa_locked with Retry-After after 5 wrong codes in a row.',
  verifyMfa: "Checks a TOTP or recovery code against the challenge; the session is MFA-fresh for the tenant's mfaFreshness after.",
  getMfaStatus: 'Whether the signed-in user has MFA on, and until when the session is MFA-fresh.',
  disableMfa: 'Turns MFA off; needs an MFA-fresh session when MFA is on (403 mfa_required otherwise). Emits mfa.disabled.',

  storeKeyShare: "Stores one key share of the signed-in user's wallet under its share index.",
  getKeyShares: 'The key shares stored for the wallet; needs an MFA-fresh session when the user has MFA on.',
  deleteKeyShares: 'Deletes every key share stored for the wallet; needs an MFA-fresh session when the user has MFA on.',
  recoverKey: "Combines enough shares into the wallet's private key and checks it against the wallet's public key.",

  createDelegatedSession:
    'Lets a delegate act on the wallet within the permissions given (templates and choices), until it expires or is revoked. Its token is answered here only.',
  getDelegatedSession: 'The delegated session: its wallet, permissions, status and expiry; never its token.',
  revokeDelegatedSession: 'Ends the delegated session at once: its token then answers 410. Emits session.revoked.',
  executeTransaction:
    "Submits one ledger command (create or exercise) with the delegated session's token, within its permissions. Emits tx.completed or tx.failed.",
  queryContracts: "The wallet party's active contracts, optionally of one template, a page at a time, with the delegated session's token.",

  createGuest: 'Opens a guest session: a guest user and its session token, for the tenant guestTtl. The body may be left out. Emits guest.created.',
  cleanupGuests: 'Ends every active guest session older than `olderThan` (a duration such as 24h) and answers how many.',
  expireGuest: 'Ends the guest session at once; it then answers 410. Emits session.revoked.',
  convertGuest: 'Turns the guest into a user with an e-mail and answers a new session. Emits guest.converted and user.created.',

  getTelegramWidgetConfig: "The tenant's Telegram bot username, for the login widget; never the bot token.",

  getPasskeyRegistrationOptions: "WebAuthn creation options for navigator.credentials.create(), for the tenant's rpId, with a challenge that lasts 5 minutes.",
  verifyPasskeyRegistration: 'Checks the new credential against its challenge and origin, and signs the user in with a session.',
  getPasskeyLoginOptions: 'WebAuthn request options for navigator.credentials.get(), with a challenge that lasts 5 minutes; `email` narrows them to that user.',
  verifyPasskeyLogin: "Checks the assertion's signature, challenge and origin, and signs the user in with a session.",

  listWebhooks: "The tenant's webhooks; their secrets are never listed.",
  createWebhook: 'Registers an endpoint for the event types listed (or *). Its signing secret is answered here only.',
  updateWebhook:
    'Changes the fields sent; `rotateSecret: true` makes and answers a new secret. A request without a body changes nothing and answers the webhook.',
  deleteWebhook: 'Deletes the webhook: nothing more is sent to it. Its deliveries stay, marked orphaned.',
  sendTestEvent: 'Sends one event (of `type`, else the first type the webhook subscribes to) to this webhook now, and answers the delivery after the attempt.',
  listDeliveries: "The webhook's deliveries with their attempts, newest first; `status` filters pending, succeeded, failed or dead.",

  removeCustomDomain: "Removes the tenant's custom domain, verified or not.",

  createCheckoutSession: "Opens a checkout at the emulated payment provider for a plan; paying it there changes the tenant's plan.",
  createPortalSession: "Opens the emulated payment provider's billing portal, where the plan can be switched; it links back to `returnUrl`.",
  getBillingUsage: "The tenant's usage in the current month against its plan's limits.",

  getOpenApiDocument: 'This document: OpenAPI 3.1, made from the routes the emulator serves. `servers` is the origin it was fetched from.',
};
