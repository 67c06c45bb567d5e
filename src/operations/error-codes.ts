/**
 * The error codes each operation answers of its own, by operationId, each with an example of
 * its message as svc words it: what the operation's service and its route's middleware throw
 * (403, 404, 409, 410, and codes of their own at a shared status, such as 400 invalid_code). The
 * codes every operation meets by rule (the HTTP server's, the API key's, the session's, the
 * store's) are not here: routes/openapi-responses.ts gives them from each operation's method
 * and security. The OpenAPI document narrows `code` to these per status and shows each as a
 * named example (docs/openapi.md#error-codes).
 *
 * Apart from the createRoute() configs so that a config keeps to what it declares; test/openapi-
 * error-codes.test.ts holds the two together (every status a route declares has its codes here,
 * every code here a status its route declares) and holds this table to what the emulator answers
 * in a whole conformance run: a code answered that is not here fails it.
 */
import { notFound, type ErrorCode, type ErrorDetail } from '../errors.js';
import type { ControlOperationId, OperationId } from './index.js';

/** An example of one code's answer: its message, and the details where svc gives some. */
export type ErrorExample = string | { message: string; details: ErrorDetail[] };

/** The codes one operation answers of its own, each with its example. */
export type OwnErrors = Partial<Record<ErrorCode, ErrorExample>>;

/** Example ids, in the shape the schemas' own examples have (schemas/common.ts idOf). */
const ID = {
  app: 'app_4f8Qm2xZb7LkP1sT9vRa',
  usr: 'usr_4f8Qm2xZb7LkP1sT9vRa',
  key: 'key_4f8Qm2xZb7LkP1sT9vRa',
  wal: 'wal_4f8Qm2xZb7LkP1sT9vRa',
  dsn: 'dsn_4f8Qm2xZb7LkP1sT9vRa',
  gst: 'gst_4f8Qm2xZb7LkP1sT9vRa',
  whk: 'whk_4f8Qm2xZb7LkP1sT9vRa',
  dlv: 'dlv_4f8Qm2xZb7LkP1sT9vRa',
  evt: 'evt_4f8Qm2xZb7LkP1sT9vRa',
  ten: 'ten_4f8Qm2xZb7LkP1sT9vRa',
  chl: 'chl_4f8Qm2xZb7LkP1sT9vRa',
} as const;

const taken = (path: string) => [{ path, message: 'already taken in this tenant' }];

const MFA_REQUIRED: ErrorExample = {
  message: 'This action needs a fresh MFA verification: POST /mfa/challenge, then POST /mfa/verify',
  details: [{ message: 'verify a TOTP or recovery code first', challenge: '/v1/mfa/challenge', verify: '/v1/mfa/verify' }],
};
const MFA_OFF = 'MFA is not enabled for this user';
const MFA_LOCKED = 'Too many wrong codes; MFA is locked for 840 more seconds';
const INVALID_CODE: ErrorExample = {
  message: 'The code is not right; 4 more wrong codes lock MFA',
  details: [{ path: 'code', message: 'the emulator clock reads 2026-11-21T10:00:00.000Z; a code is valid for 30 s either side' }],
};
const NO_WALLET = notFound('wallet', ID.wal).message;
const WALLET_CLAIMED = 'The wallet was already created; its device and recovery shares were handed out then';
const GUEST_ENDED = {
  message: `Guest session ${ID.gst} has expired`,
  details: [{ message: `Guest session ${ID.gst} expired at 2026-11-28T10:00:00.000Z`, status: 'expired' }],
};
const CHALLENGE_USED = `Challenge ${ID.chl} was already used; ask for new options`;
const WEBAUTHN_FAILED = 'The passkey response could not be verified: the signature does not match';
const WEBAUTHN_ORIGIN: ErrorExample = {
  message: 'The passkey response was made on the origin https://evil.example, which this tenant does not allow',
  details: [{ path: 'response.clientDataJSON.origin', message: 'allowed: http://localhost:5173', origin: 'https://evil.example' }],
};
const WEBAUTHN_RP_ID: ErrorExample = {
  message: "The passkey is bound to another RP ID than this tenant's (localhost)",
  details: [{ path: 'response.authenticatorData.rpIdHash', message: 'expected SHA-256 of "localhost"' }],
};
const DELEGATE_DENIED = 'The delegated session may not run this command: template Iou:Transfer is not in its permissions';
const CONTROL_DENIED = 'The control plane answers only on loopback; start svc serve with --admin-token to reach it from elsewhere';
const CROSS_SITE =
  'A call that changes the emulator must send Content-Type: application/json or the header x-svc-control: 1, without an Origin of another site (the svc CLI and client do); a form or a text/plain body could come from any page';
const SNAPSHOTS_ON_POSTGRES =
  'snapshots are kept in the data dir of one svc serve, and this store lives in PostgreSQL, shared by every process given its URL; ' +
  'save and restore the database itself (pg_dump / pg_restore, with every svc serve stopped), see docs/control-plane.md#snapshots';
const NO_TENANT = notFound('tenant', ID.ten).message;
const NO_TXT_RECORD = notFound('emulated TXT record', '_svc-verify.auth.example.com').message;

/** What the control plane's guard answers: a caller it does not let in, and a change a page of another site could have sent. */
const GUARD = { permission_denied: CONTROL_DENIED } as const;
const GUARD_CHANGE = { permission_denied: CONTROL_DENIED, cross_site_request: CROSS_SITE } as const;

/** The /v1 operations' own codes. */
export const API_ERROR_CODES = {
  checkHealth: {},
  checkReadiness: {},
  listApps: {},
  createApp: { conflict: { message: 'an app named "Acme Web" already exists', details: taken('name') } },
  getApp: { not_found: notFound('app', ID.app).message },
  updateApp: { not_found: notFound('app', ID.app).message, conflict: { message: 'an app named "Acme Web" already exists', details: taken('name') } },
  deleteApp: { not_found: notFound('app', ID.app).message },
  createWallet: { conflict: WALLET_CLAIMED },
  getWallet: { not_found: 'The user has no wallet yet: create it with POST /users/me/wallet' },
  listUsers: {},
  createUser: { conflict: { message: 'a user with email ada@example.com already exists', details: taken('email') } },
  getUser: { not_found: notFound('user', ID.usr).message },
  listApiKeys: {},
  createApiKey: {},
  revokeApiKey: { not_found: notFound('API key', ID.key).message },
  getTenant: {},
  updateTenant: {},
  setupMfa: { conflict: 'MFA is already enabled; disable it first to set it up again' },
  verifyMfaSetup: { invalid_code: INVALID_CODE, conflict: 'MFA setup has not been started; call POST /mfa/setup first' },
  createMfaChallenge: { conflict: MFA_OFF, mfa_locked: MFA_LOCKED },
  verifyMfa: {
    invalid_code: INVALID_CODE,
    not_found: `MFA challenge ${ID.chl} not found for this session`,
    conflict: MFA_OFF,
    challenge_expired: 'This challenge was already used; request a new one',
    mfa_locked: MFA_LOCKED,
  },
  getMfaStatus: {},
  disableMfa: { mfa_required: MFA_REQUIRED, conflict: MFA_OFF },
  storeKeyShare: {
    not_found: NO_WALLET,
    conflict: { message: `Wallet ${ID.wal} already has a share with index 3`, details: [{ path: 'shareIndex', message: 'already taken' }] },
  },
  getKeyShares: { mfa_required: MFA_REQUIRED, not_found: NO_WALLET },
  deleteKeyShares: { mfa_required: MFA_REQUIRED, not_found: NO_WALLET },
  recoverKey: {
    share_mismatch: {
      message: "The shares do not recover this wallet's key: the derived public key differs",
      details: [{ path: 'shares', message: 'give two shares of this wallet' }],
    },
    mfa_required: MFA_REQUIRED,
    not_found: NO_WALLET,
  },
  createDelegatedSession: { mfa_required: MFA_REQUIRED, not_found: NO_WALLET },
  getDelegatedSession: { not_found: notFound('delegated session', ID.dsn).message },
  revokeDelegatedSession: { not_found: notFound('delegated session', ID.dsn).message },
  executeTransaction: { permission_denied: DELEGATE_DENIED, not_found: notFound('delegated session', ID.dsn).message },
  queryContracts: {
    permission_denied: 'The delegated session may not query this: template Iou:Transfer is not in its permissions',
    not_found: notFound('delegated session', ID.dsn).message,
  },
  createGuest: {},
  cleanupGuests: {},
  getGuest: { not_found: notFound('guest session', ID.gst).message, session_expired: GUEST_ENDED },
  expireGuest: { not_found: notFound('guest session', ID.gst).message, session_expired: GUEST_ENDED },
  convertGuest: {
    not_found: notFound('guest session', ID.gst).message,
    conflict: { message: 'a user with email ada@example.com already exists', details: taken('email') },
    session_expired: GUEST_ENDED,
  },
  verifyTelegramAuth: {
    invalid_telegram_auth: 'The Telegram data is not authentic: the hash does not match the data',
    invalid_session: 'The session token is not valid',
    conflict: 'This tenant has no Telegram bot token; set settings.telegram.botToken with PATCH /tenant',
    telegram_auth_expired: 'The Telegram data is older than 24 hours (auth_date); sign in with Telegram again',
    session_expired: 'The session has expired; sign in again',
  },
  getTelegramWidgetConfig: {},
  getPasskeyRegistrationOptions: {},
  verifyPasskeyRegistration: {
    webauthn_origin_mismatch: WEBAUTHN_ORIGIN,
    webauthn_rp_id_mismatch: WEBAUTHN_RP_ID,
    webauthn_verification_failed: WEBAUTHN_FAILED,
    not_found: notFound('registration challenge', ID.chl).message,
    conflict: 'This passkey is already registered',
    challenge_expired: CHALLENGE_USED,
  },
  getPasskeyLoginOptions: { not_found: notFound('passkey for ada@example.com').message },
  verifyPasskeyLogin: {
    webauthn_origin_mismatch: WEBAUTHN_ORIGIN,
    webauthn_rp_id_mismatch: WEBAUTHN_RP_ID,
    webauthn_verification_failed: WEBAUTHN_FAILED,
    unknown_credential: {
      message: 'No passkey with this credential id is registered here',
      details: [{ path: 'response.id', message: 'unknown credential', credentialId: 'q9Xw3k0VbP1rT6sZ' }],
    },
    counter_not_advanced: {
      message: 'The signature counter did not advance (got 4, last seen 4); the authenticator may be cloned',
      details: [{ path: 'response.authenticatorData.signCount', message: 'must be greater than 4' }],
    },
    not_found: notFound('authentication challenge', ID.chl).message,
    challenge_expired: CHALLENGE_USED,
  },
  listWebhooks: {},
  createWebhook: {},
  updateWebhook: { not_found: notFound('webhook', ID.whk).message },
  deleteWebhook: { not_found: notFound('webhook', ID.whk).message },
  sendTestEvent: { not_found: notFound('webhook', ID.whk).message },
  listDeliveries: { not_found: notFound('webhook', ID.whk).message },
  registerCustomDomain: {
    conflict: {
      message: 'the domain auth.acme.example is registered by another tenant',
      details: [{ path: 'domain', message: 'already taken' }],
    },
  },
  removeCustomDomain: { not_found: notFound('custom domain (register one with POST /custom-domains)').message },
  verifyCustomDomain: {
    dns_verification_failed: {
      message: 'DNS verification failed: no TXT record _svc-verify.auth.acme.example',
      details: [{ path: '_svc-verify.auth.acme.example', message: 'no TXT record _svc-verify.auth.acme.example', expected: 'svc-verify=4f8Qm2xZ', found: [] }],
    },
    not_found: notFound('custom domain (register one with POST /custom-domains)').message,
    dns_unavailable: {
      message: 'DNS did not answer in time; try again later',
      details: [{ path: 'dns', message: 'DNS did not answer in time', server: 'system', reason: 'timeout' }],
    },
  },
  getAnalytics: {},
  createCheckoutSession: { conflict: { message: 'the tenant is already on the pro plan', details: [{ path: 'plan', message: 'already pro' }] } },
  createPortalSession: {},
  getBillingUsage: {},
  getOpenApiDocument: {},
} as const satisfies Record<OperationId, OwnErrors>;

/** The control plane's operations' own codes. */
export const CONTROL_ERROR_CODES = {
  getEmulatorHealth: GUARD,
  getControlOpenApiDocument: GUARD,
  getClock: GUARD,
  setClock: GUARD_CHANGE,
  advanceClock: GUARD_CHANGE,
  listEvents: GUARD,
  listDeadLetters: GUARD,
  retryDelivery: {
    ...GUARD_CHANGE,
    not_found: notFound('delivery', ID.dlv).message,
    conflict: `delivery ${ID.dlv} is delivered; only dead deliveries (in the DLQ) can be retried`,
  },
  retryDeadLetters: GUARD_CHANGE,
  resetStore: { ...GUARD_CHANGE, conflict: 'cannot reset: the fixture fixtures/default.json is not valid JSON: Unexpected end of JSON input' },
  seedStore: { ...GUARD_CHANGE, conflict: `tenant ${ID.ten} already exists; reset the store first` },
  triggerEvent: { ...GUARD_CHANGE, not_found: NO_TENANT, conflict: 'the store holds no tenant; seed one first (POST /_emulator/seed or /_emulator/reset)' },
  listFaults: GUARD,
  addFault: { ...GUARD_CHANGE, not_found: NO_TENANT },
  clearFaults: GUARD_CHANGE,
  listTestTenants: GUARD,
  createTestTenant: {
    ...GUARD_CHANGE,
    not_found: NO_TENANT,
    conflict: 'cannot read the fixture: the fixture fixtures/default.json is not valid JSON: Unexpected end of JSON input',
  },
  resetTestTenant: {
    ...GUARD_CHANGE,
    not_found: NO_TENANT,
    conflict: 'cannot read the fixture: the fixture fixtures/default.json is not valid JSON: Unexpected end of JSON input',
  },
  removeTestTenant: { ...GUARD_CHANGE, not_found: NO_TENANT },
  listJournal: GUARD,
  clearJournal: GUARD_CHANGE,
  listAllDeliveries: GUARD,
  redeliverEvents: { ...GUARD_CHANGE, not_found: notFound('event', ID.evt).message },
  exportFixture: { ...GUARD, not_found: NO_TENANT, conflict: 'the store holds no tenant to export' },
  listSnapshots: { conflict: SNAPSHOTS_ON_POSTGRES },
  saveSnapshot: { conflict: SNAPSHOTS_ON_POSTGRES },
  getSnapshot: { not_found: notFound('snapshot', 'before-checkout').message, conflict: SNAPSHOTS_ON_POSTGRES },
  restoreSnapshot: { not_found: notFound('snapshot', 'before-checkout').message, conflict: SNAPSHOTS_ON_POSTGRES },
  deleteSnapshot: { not_found: notFound('snapshot', 'before-checkout').message, conflict: SNAPSHOTS_ON_POSTGRES },
  listDnsTxtRecords: GUARD,
  getDnsTxtRecord: { ...GUARD, not_found: NO_TXT_RECORD },
  setDnsTxtRecord: { ...GUARD_CHANGE, conflict: 'the emulated zone holds 1000 names, its most; remove one with DELETE /_emulator/dns/txt/{name} first' },
  removeDnsTxtRecord: { ...GUARD_CHANGE, not_found: NO_TXT_RECORD },
} as const satisfies Record<ControlOperationId, OwnErrors>;

/** Both tables as one look-up by operationId (the two documents' operationIds do not overlap). */
export const OWN_ERROR_CODES: Readonly<Record<string, OwnErrors>> = { ...API_ERROR_CODES, ...CONTROL_ERROR_CODES };
