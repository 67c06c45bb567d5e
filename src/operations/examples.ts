/**
 * The examples of the /v1 operations (docs/openapi.md#examples): one a tool can send as it is
 * for every body and parameter, and for every success answer the one the example request gets.
 * A record they name is one of fixtures/default.json, read here from the package's own copy, so
 * a GET example finds its record in a fresh `svc serve` and cannot drift from the fixture: the
 * Acme tenant (its API key), its first app and its first user with an e-mail, who is also the
 * user the session examples act for, that user's passkey, the tenant's guest session and its
 * webhook. A record a write example changes or ends (a guest converted or ended, a webhook
 * changed, tested or deleted) or one the fixture cannot hold (a delegated session, a key made
 * through the API) has the id its create example answers, so a seeded record stays as it was
 * for every GET whatever a tool sends first; a replay substitutes the id the create really
 * answered (MADE_BY_CREATE).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_ID_SEED, derivedId, type IdPrefix } from '../ids.js';
import { packageFile } from '../paths.js';
import type { AppView } from '../schemas/apps.js';
import type { ApiKeyView } from '../schemas/api-keys.js';
import type { UserView } from '../schemas/users.js';
import type { TenantView } from '../schemas/tenant.js';
import type { Page } from '../schemas/common.js';
import { DEFAULT_PAGE_SIZE } from '../schemas/common.js';

/** What the examples read of the shipped fixture (its schema, schemas/fixture.ts, checks the whole file when it is seeded). */
interface ShippedFixture {
  tenants: Array<{
    id: string;
    name: string;
    plan: TenantView['plan'];
    apiKeys: Array<{ id: string; name: string; key: string }>;
    settings?: { telegram?: { botUsername?: string; botToken?: string } };
    apps: Array<{ id: string; name: string; description?: string | null; allowedOrigins?: string[] }>;
    users: Array<{
      id: string;
      email: string | null;
      name?: string | null;
      trustLevel: UserView['trustLevel'];
      createdAt?: string;
      guestSession?: { id: string };
      passkeys?: Array<{ credentialId: string; transports?: string[] }>;
    }>;
    webhooks: Array<{ id: string; url: string; events: string[]; description?: string | null; enabled?: boolean }>;
  }>;
}

const FIXTURE = JSON.parse(readFileSync(packageFile('fixtures', 'default.json'), 'utf8')) as ShippedFixture;
const TENANT = FIXTURE.tenants[0]!;
const API_KEY = TENANT.apiKeys[0]!;
const FIXTURE_APP = TENANT.apps[0]!;
/** The app deleteApp's example removes: the last one, so the others' examples still find theirs. */
const DOOMED_APP = TENANT.apps[TENANT.apps.length - 1]!;
const FIXTURE_USER = TENANT.users.find((user) => user.email !== null)!;
/** The guest user whose guest session seeding opens, and the user with a passkey (the login-options example's). */
const GUEST_USER = TENANT.users.find((user) => user.guestSession !== undefined)!;
const PASSKEY_USER = TENANT.users.find((user) => (user.passkeys ?? []).length > 0)!;
const FIXTURE_WEBHOOK = TENANT.webhooks[0]!;

/** "Now" in the answers: a record made at seeding or by an example was made then. */
export const EXAMPLE_NOW = '2026-11-21T10:00:00.000Z';
const later = (ms: number): string => new Date(Date.parse(EXAMPLE_NOW) + ms).toISOString();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** An id for a record the examples make: derived, so it looks like the emulator's and never changes. */
function madeId(prefix: IdPrefix, name: string): string {
  return derivedId(prefix, 'svc-examples', name);
}

/** 64 hex digits standing for a key or fingerprint the emulator draws at random. */
function hex32(name: string): string {
  return createHash('sha256').update(name).digest('hex');
}

/** A 33-byte key share (base64) whose last byte, its x coordinate, is `x`. */
function share(x: number, name: string): string {
  return Buffer.concat([createHash('sha256').update(name).digest(), Buffer.from([x])]).toString('base64');
}

/** `length` base62 characters standing for a secret the emulator draws at random. */
function drawn(name: string, length: number): string {
  let text = '';
  for (let block = 0; text.length < length; block++) text += madeId('tx', `${name}/${block}`).slice('tx_'.length);
  return text.slice(0, length);
}

/** A token or key as the emulator hands it out: `prefix` and 32 base62 characters. */
function token(prefix: string, name: string): string {
  return `${prefix}${drawn(name, 32)}`;
}

/** The party id a user gets: the hint from its e-mail (users.ts, crypto/party.ts) and a key's fingerprint. */
function partyIdOf(user: { id: string; email: string | null; name?: string | null }): string {
  const hint = (user.email?.split('@')[0] ?? user.name ?? user.id).replace(/[^A-Za-z0-9_-]/g, '-').replace(/^-+|-+$/g, '');
  return `${hint}::1220${hex32(user.id)}`;
}

function userView(user: ShippedFixture['tenants'][number]['users'][number]): UserView {
  const createdAt = user.createdAt ?? EXAMPLE_NOW;
  return { id: user.id, email: user.email, name: user.name ?? null, trustLevel: user.trustLevel, partyId: partyIdOf(user), createdAt, updatedAt: createdAt };
}

function appView(app: ShippedFixture['tenants'][number]['apps'][number]): AppView {
  return {
    id: app.id,
    name: app.name,
    description: app.description ?? null,
    allowedOrigins: app.allowedOrigins ?? [],
    createdAt: EXAMPLE_NOW,
    updatedAt: EXAMPLE_NOW,
  };
}

/** One page of `items` as the paginated envelope answers it. */
function pageOf<T>(items: T[], page: number, pageSize: number): Page<T> {
  const data = items.slice((page - 1) * pageSize, page * pageSize);
  return { data, total: items.length, page, pageSize, hasMore: page * pageSize < items.length };
}

const matches = (texts: Array<string | null | undefined>, search: string): boolean => texts.some((text) => text?.toLowerCase().includes(search.toLowerCase()));

/** Newest first, as every list answers (services/pagination.ts). */
const newestFirst = <T extends { createdAt: string }>(items: T[]): T[] => [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** The fixture's tenant and its records the examples name. */
export const FIXTURE_EXAMPLES = {
  tenantId: TENANT.id,
  appId: FIXTURE_APP.id,
  userId: FIXTURE_USER.id,
  /** The wallet seeding gives the user: its id derived from the user's (services/seed.ts). */
  walletId: derivedId('wal', DEFAULT_ID_SEED, `${FIXTURE_USER.id}/wallet`),
  guestId: GUEST_USER.guestSession!.id,
  webhookId: FIXTURE_WEBHOOK.id,
  passkeyEmail: PASSKEY_USER.email!,
};

// Apps.
const appsQuery = { page: 1, page_size: DEFAULT_PAGE_SIZE, search: TENANT.name.split(' ')[0]!.toLowerCase() };
const createdApp: AppView = {
  id: madeId('app', 'kiosk'),
  name: `${TENANT.name.split(' ')[0]} Kiosk`,
  description: 'The in-store kiosk',
  allowedOrigins: ['http://localhost:4000'],
  createdAt: EXAMPLE_NOW,
  updatedAt: EXAMPLE_NOW,
};
const appUpdate = { description: `${FIXTURE_APP.description ?? FIXTURE_APP.name}, with its checkout` };
export const APP_EXAMPLES = {
  listQuery: appsQuery,
  list: pageOf(
    [...TENANT.apps]
      .reverse()
      .filter((app) => matches([app.name], appsQuery.search))
      .map(appView),
    appsQuery.page,
    appsQuery.page_size,
  ),
  createBody: { name: createdApp.name, description: createdApp.description, allowedOrigins: createdApp.allowedOrigins },
  created: createdApp,
  id: FIXTURE_APP.id,
  app: appView(FIXTURE_APP),
  updateBody: appUpdate,
  updated: { ...appView(FIXTURE_APP), ...appUpdate, updatedAt: later(HOUR) },
  deleteId: DOOMED_APP.id,
  deleted: { id: DOOMED_APP.id, deleted: true as const },
};

// Users.
const usersQuery = { page: 1, page_size: DEFAULT_PAGE_SIZE, trust_level: 'verified' as const, search: 'silva' };
const newUser = { email: `nia.novak@${FIXTURE_USER.email!.split('@')[1]}`, name: 'Nia Novak', trustLevel: 'basic' as const };
export const USER_EXAMPLES = {
  listQuery: usersQuery,
  list: pageOf(
    newestFirst(TENANT.users.filter((user) => user.trustLevel === usersQuery.trust_level && matches([user.email, user.name], usersQuery.search)).map(userView)),
    usersQuery.page,
    usersQuery.page_size,
  ),
  createBody: newUser,
  created: userView({ id: madeId('usr', newUser.email), ...newUser, createdAt: EXAMPLE_NOW }),
  id: FIXTURE_USER.id,
  user: userView(FIXTURE_USER),
};
const SIGNED_IN = USER_EXAMPLES.user;

/** A session grant for the example user, as a sign-in answers it. */
export const SESSION_EXAMPLE = { token: token('st_', 'session'), expiresAt: later(DAY) };

// The signed-in user's wallet, its key shares and delegated sessions.
const wallet = { id: FIXTURE_EXAMPLES.walletId, userId: SIGNED_IN.id, partyId: SIGNED_IN.partyId, publicKey: hex32('wallet'), createdAt: EXAMPLE_NOW };
const deviceShare = share(2, 'device');
const recoveryShare = share(3, 'recovery');
export const WALLET_EXAMPLES = {
  claimBody: {},
  claimed: { ...wallet, deviceShare, recoveryShare },
  wallet,
};

const storedShare = { id: madeId('shr', 'device'), walletId: wallet.id, shareIndex: 2, label: 'device', createdAt: later(HOUR) };
export const MPC_EXAMPLES = {
  walletId: wallet.id,
  storeBody: { walletId: wallet.id, shareIndex: 2, share: deviceShare, label: 'device' },
  stored: storedShare,
  shares: {
    data: [
      { id: null, walletId: wallet.id, shareIndex: 1, label: 'server', source: 'server' as const, share: share(1, 'server'), createdAt: SIGNED_IN.createdAt },
      { ...storedShare, source: 'client' as const, share: deviceShare },
    ],
  },
  deleted: { walletId: wallet.id, deleted: 1 },
  recoverBody: { walletId: wallet.id, shares: [deviceShare, recoveryShare] },
  recovered: { walletId: wallet.id, publicKey: wallet.publicKey, privateKey: hex32('seed') },
};

const TEMPLATE = '#pkg:Iou:Iou';
const permissions = { templates: [TEMPLATE], choices: ['Transfer', 'Archive'] };
const delegated = {
  id: madeId('dsn', 'delegated'),
  status: 'active' as const,
  walletId: wallet.id,
  userId: SIGNED_IN.id,
  partyId: SIGNED_IN.partyId,
  permissions,
  maxCommands: 10,
  usage: { commands: 0, completed: 0, failed: 0, denied: 0, queries: 0, remaining: 10 },
  createdAt: EXAMPLE_NOW,
  expiresAt: later(HOUR),
  revokedAt: null,
  lastUsedAt: null,
};
const iou = { issuer: SIGNED_IN.partyId, owner: SIGNED_IN.partyId, amount: '100.00', currency: 'USD' };
const contractId = madeId('ctr', 'iou');
export const DELEGATED_EXAMPLES = {
  createBody: { walletId: wallet.id, permissions, maxCommands: 10, expiresIn: '1h' },
  created: { ...delegated, token: token('dst_', 'delegated') },
  id: delegated.id,
  session: delegated,
  revoked: { ...delegated, status: 'revoked' as const, revokedAt: later(HOUR / 2) },
  executeBody: { command: { create: { templateId: TEMPLATE, payload: iou } } },
  transaction: {
    id: madeId('tx', 'iou'),
    updateId: madeId('upd', 'iou'),
    status: 'completed' as const,
    events: [{ type: 'created' as const, contractId, templateId: TEMPLATE, payload: iou, signatories: [SIGNED_IN.partyId] }],
    rejection: null,
    sessionId: delegated.id,
    createdAt: later(HOUR / 4),
  },
  queryBody: { templateId: TEMPLATE, page: 1, pageSize: DEFAULT_PAGE_SIZE },
  contracts: pageOf(
    [
      {
        contractId,
        templateId: TEMPLATE,
        payload: iou,
        signatories: [SIGNED_IN.partyId],
        createdAt: later(HOUR / 4),
        status: 'active' as const,
        archivedAt: null,
      },
    ],
    1,
    DEFAULT_PAGE_SIZE,
  ),
};

// API keys.
const keyView = (id: string, name: string, key: string): ApiKeyView => ({
  id,
  name,
  prefix: key.slice(0, 'sk_test_'.length + 4),
  last4: key.slice(-4),
  status: 'active',
  createdAt: EXAMPLE_NOW,
  revokedAt: null,
});
const newKey = token('sk_test_', 'api-key');
const madeKey = keyView(madeId('key', 'ci'), 'ci', newKey);
export const API_KEY_EXAMPLES = {
  list: { data: [keyView(API_KEY.id, API_KEY.name, API_KEY.key)] },
  createBody: { name: madeKey.name },
  created: { ...madeKey, key: newKey },
  id: madeKey.id,
  revoked: { ...madeKey, status: 'revoked' as const, revokedAt: later(HOUR) },
};

// The tenant. Its settings are the defaults (services/tenant.ts) with the fixture's Telegram bot.
const PRO_LIMITS = { requestsPerSecond: 200, monthlyActiveUsers: 50_000, wallets: 50_000, deliveries: 1_000_000 };
const tenant: TenantView = {
  id: TENANT.id,
  name: TENANT.name,
  plan: TENANT.plan,
  settings: {
    apiVersion: '2026-11-01',
    sessionTtl: '24h',
    guestTtl: '24h',
    mfaFreshness: '10m',
    webauthn: { rpId: 'localhost', rpName: 'svc emulator', origins: ['http://localhost:4010'] },
    telegram: { botUsername: TENANT.settings?.telegram?.botUsername ?? '', botTokenSet: TENANT.settings?.telegram?.botToken !== undefined },
  },
  limits: PRO_LIMITS,
  createdAt: EXAMPLE_NOW,
  updatedAt: EXAMPLE_NOW,
};
export const TENANT_EXAMPLES = {
  tenant,
  updateBody: { settings: { mfaFreshness: '15m' } },
  updated: { ...tenant, settings: { ...tenant.settings, mfaFreshness: '15m' }, updatedAt: later(HOUR) },
};

// MFA of the signed-in user.
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const MFA_EXAMPLES = {
  setup: {
    secret: TOTP_SECRET,
    otpauthUrl: `otpauth://totp/${encodeURIComponent(TENANT.name)}:${encodeURIComponent(SIGNED_IN.email!)}?issuer=${encodeURIComponent(TENANT.name)}&secret=${TOTP_SECRET}&algorithm=SHA1&digits=6&period=30`,
    qrCode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  },
  verifySetupBody: { code: '123456' },
  enabled: { enabled: true as const, recoveryCodes: Array.from({ length: 10 }, (_, i) => drawn(`recovery-${i}`, 10).toLowerCase()) },
  challenge: { challengeId: madeId('mfc', 'challenge'), expiresAt: later(5 * 60 * 1000) },
  verifyBody: { challengeId: madeId('mfc', 'challenge'), code: '123456' },
  verified: { verified: true as const, freshUntil: later(10 * 60 * 1000) },
  status: { enabled: false, freshUntil: null, locked: false, recoveryCodesRemaining: 0 },
  disabled: { enabled: false as const },
};

// Guest sessions: the seeded one, open for the tenant's guestTtl (24h) from the start; and the one createGuest makes.
const seededGuest = {
  id: GUEST_USER.guestSession!.id,
  status: 'active' as const,
  userId: GUEST_USER.id,
  createdAt: EXAMPLE_NOW,
  expiresAt: later(DAY),
  endedAt: null,
  convertedAt: null,
};
const guestUser = userView({ id: madeId('usr', 'guest'), email: null, name: null, trustLevel: 'guest', createdAt: EXAMPLE_NOW });
const guest = {
  id: madeId('gst', 'guest'),
  status: 'active' as const,
  userId: guestUser.id,
  createdAt: EXAMPLE_NOW,
  expiresAt: later(DAY),
  endedAt: null,
  convertedAt: null,
};
const convertBody = { email: `gina.guest@${FIXTURE_USER.email!.split('@')[1]}`, name: 'Gina Guest' };
export const GUEST_EXAMPLES = {
  createBody: {},
  created: { ...guest, user: guestUser, session: { token: token('st_', 'guest'), expiresAt: later(DAY) } },
  cleanupBody: { olderThan: '24h' },
  cleaned: { expired: 0 },
  /** getGuest's: the seeded guest session. */
  seededId: seededGuest.id,
  guest: seededGuest,
  /** convertGuest's and expireGuest's: the guest createGuest makes, so the seeded one stays open. */
  id: guest.id,
  convertBody,
  converted: {
    user: { ...guestUser, ...convertBody, trustLevel: 'basic' as const, partyId: partyIdOf({ ...guestUser, ...convertBody }), updatedAt: later(HOUR) },
    session: { token: token('st_', 'converted'), expiresAt: later(DAY + HOUR) },
    guest: { ...guest, status: 'converted' as const, convertedAt: later(HOUR) },
  },
  ended: { ...guest, status: 'ended' as const, endedAt: later(HOUR) },
};

// Sign-in: Telegram and passkeys. Their proofs (a hash over the bot token, an authenticator's
// signature) cannot be examples a tool sends as they are: the emulator refuses them, with 4xx.
const signIn = { user: SIGNED_IN, session: SESSION_EXAMPLE };
const base64url = (name: string, bytes = 32): string => createHash('sha256').update(name).digest().subarray(0, bytes).toString('base64url');
const credentialId = base64url('credential');

/** What a browser's `navigator.credentials` answers, as the passkey verify bodies carry it, around the authenticator's `response`. */
function credential<T extends object>(response: T) {
  return {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key' as const,
    clientExtensionResults: {},
    authenticatorAttachment: 'platform' as const,
    response,
  };
}
const challengeId = madeId('chl', 'passkey');
export const SIGN_IN_EXAMPLES = {
  signIn,
  telegramBody: { id: 123456789, first_name: 'Bob', username: 'bob_chen', auth_date: Math.floor(Date.parse(EXAMPLE_NOW) / 1000), hash: hex32('telegram') },
  widgetConfig: {
    botUsername: tenant.settings.telegram.botUsername,
    botId: TENANT.settings?.telegram?.botToken?.split(':')[0] ?? null,
    configured: tenant.settings.telegram.botTokenSet,
    requestAccess: 'write' as const,
    scriptUrl: 'https://telegram.org/js/telegram-widget.js?22',
    maxAuthAge: '24h',
  },
  registerOptionsBody: { email: newUser.email, name: newUser.name },
  registerOptions: {
    challengeId,
    options: {
      rp: { name: tenant.settings.webauthn.rpName, id: tenant.settings.webauthn.rpId },
      user: { id: base64url('user-handle', 16), name: newUser.email, displayName: newUser.name },
      challenge: base64url('challenge'),
      pubKeyCredParams: [
        { alg: -7, type: 'public-key' },
        { alg: -8, type: 'public-key' },
        { alg: -257, type: 'public-key' },
      ],
      timeout: 300000,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred', requireResidentKey: false },
      extensions: { credProps: true },
      hints: [],
    },
  },
  registerVerifyBody: {
    challengeId,
    response: credential({ clientDataJSON: base64url('client-data'), attestationObject: base64url('attestation'), transports: ['internal'] }),
  },
  loginEmail: PASSKEY_USER.email!,
  loginOptions: {
    challengeId,
    options: {
      challenge: base64url('challenge'),
      timeout: 300000,
      rpId: tenant.settings.webauthn.rpId,
      allowCredentials: (PASSKEY_USER.passkeys ?? []).map((passkey) => ({
        id: passkey.credentialId,
        type: 'public-key',
        transports: passkey.transports ?? [],
      })),
      userVerification: 'preferred',
    },
  },
  loginVerifyBody: {
    challengeId,
    response: credential({ clientDataJSON: base64url('client-data'), authenticatorData: base64url('authenticator-data'), signature: base64url('signature') }),
  },
};

// Webhooks and their deliveries: the seeded one (switched off, so it hears nothing), and the one createWebhook makes.
const seededWebhook = {
  id: FIXTURE_WEBHOOK.id,
  url: FIXTURE_WEBHOOK.url,
  events: FIXTURE_WEBHOOK.events,
  description: FIXTURE_WEBHOOK.description ?? null,
  enabled: FIXTURE_WEBHOOK.enabled ?? true,
  createdAt: EXAMPLE_NOW,
  updatedAt: EXAMPLE_NOW,
};
const webhook = {
  id: madeId('whk', 'receiver'),
  url: 'http://127.0.0.1:4020/webhooks',
  events: ['user.created', 'wallet.created'],
  description: "svc webhook listen's default address",
  enabled: true,
  createdAt: EXAMPLE_NOW,
  updatedAt: EXAMPLE_NOW,
};
/** The test event's delivery as a fresh emulator answers it while nothing listens at the URL yet: failed, retried in a minute. */
const delivery = {
  id: madeId('dlv', 'test'),
  webhookId: webhook.id,
  eventId: madeId('evt', 'test'),
  eventType: 'user.created',
  status: 'failed' as const,
  attempts: [
    {
      at: later(HOUR),
      signedAt: Math.floor((Date.parse(EXAMPLE_NOW) + HOUR) / 1000),
      statusCode: null,
      error: 'connection refused (ECONNREFUSED)',
      durationMs: 2.4,
    },
  ],
  nextAttemptAt: later(HOUR + 60_000),
  createdAt: later(HOUR),
  updatedAt: later(HOUR),
};
export const WEBHOOK_EXAMPLES = {
  list: { data: [seededWebhook] },
  createBody: { url: webhook.url, events: webhook.events as Array<'user.created' | 'wallet.created'>, description: webhook.description },
  created: { ...webhook, secret: token('whsec_', 'webhook') },
  id: webhook.id,
  updateBody: { events: ['*' as const], enabled: true },
  updated: { ...webhook, events: ['*'], updatedAt: later(HOUR / 2) },
  deleted: { id: webhook.id, deleted: true as const },
  testBody: { type: 'user.created' as const },
  delivery,
  /** listDeliveries': the seeded webhook, which no event has reached (sendTestEvent's answer shows a delivery). */
  deliveriesId: seededWebhook.id,
  deliveriesQuery: { status: 'failed' as const },
  deliveries: { data: [] },
};

// The tenant's custom domain.
const domainName = `auth.${FIXTURE_USER.email!.split('@')[1]}`;
const domain = {
  id: madeId('dom', domainName),
  domain: domainName,
  status: 'pending' as const,
  verification: { type: 'TXT' as const, name: `_svc-verify.${domainName}`, value: `svc-verify=${drawn('domain', 32)}` },
  verifiedAt: null,
  createdAt: EXAMPLE_NOW,
};
export const DOMAIN_EXAMPLES = {
  registerBody: { domain: domainName },
  registered: domain,
  verified: { ...domain, status: 'verified' as const, verifiedAt: later(HOUR) },
  removed: { domain: domainName, deleted: true as const },
};

// Analytics over the example period: a week of days, oldest first, whose sums are the totals.
const week = [
  [2, 3, 4, 1, 0, 5, 2],
  [4, 6, 7, 3, 2, 8, 5],
];
const dayOf = (index: number) => {
  const newUsers = week[0]![index]!;
  const signIns = week[1]![index]!;
  return {
    date: later((index - 6) * DAY).slice(0, 10),
    newUsers,
    activeUsers: signIns - 1 > 0 ? signIns - 1 : 0,
    signIns,
    walletsCreated: newUsers,
    transactions: index % 3,
    apiCalls: 40 * signIns + 7,
    deliveries: { succeeded: newUsers * 2, failed: index === 3 ? 1 : 0, dead: 0, pending: 0 },
  };
};
const series = Array.from({ length: 7 }, (_, index) => dayOf(index));
const sum = (pick: (day: (typeof series)[number]) => number): number => series.reduce((total, day) => total + pick(day), 0);
export const ANALYTICS_EXAMPLES = {
  period: '7d' as const,
  analytics: {
    period: '7d' as const,
    from: `${series[0]!.date}T00:00:00.000Z`,
    to: EXAMPLE_NOW,
    totals: {
      newUsers: sum((day) => day.newUsers),
      activeUsers: 9,
      signIns: sum((day) => day.signIns),
      signInsByMethod: { passkey: sum((day) => day.signIns) - 12, telegram: 5, guest: 4, convert: 3 },
      walletsCreated: sum((day) => day.walletsCreated),
      transactions: sum((day) => day.transactions),
      apiCalls: sum((day) => day.apiCalls),
      deliveries: {
        succeeded: sum((day) => day.deliveries.succeeded),
        failed: sum((day) => day.deliveries.failed),
        dead: 0,
        pending: 0,
      },
    },
    series,
  },
};

// Billing: the fixture's tenant is on pro; the checkout example moves it to enterprise.
const RETURN = 'https://app.acme.test/billing';
const checkoutId = `cs_test_${madeId('cs', 'checkout').slice(3)}`;
export const BILLING_EXAMPLES = {
  checkoutBody: { plan: 'enterprise' as const, successUrl: `${RETURN}/done?session={CHECKOUT_SESSION_ID}`, cancelUrl: RETURN },
  checkout: {
    id: checkoutId,
    url: `http://127.0.0.1:4010/_provider/checkout/${checkoutId}`,
    plan: 'enterprise' as const,
    status: 'open' as const,
    expiresAt: later(DAY),
  },
  portalBody: { returnUrl: RETURN },
  portal: { id: madeId('bps', 'portal'), url: `http://127.0.0.1:4010/_provider/portal/${madeId('bps', 'portal')}`, expiresAt: later(HOUR) },
  usage: {
    plan: TENANT.plan,
    price: { amount: 4_900, currency: 'usd' as const, interval: 'month' as const },
    period: { from: `${EXAMPLE_NOW.slice(0, 8)}01T00:00:00.000Z`, to: EXAMPLE_NOW },
    usage: { apiCalls: 1_204, monthlyActiveUsers: 23, wallets: 17, deliveries: 58 },
    limits: PRO_LIMITS,
  },
};

/**
 * The records a fresh emulator does not hold, by the id their examples name, and the operation
 * whose example makes each: a replay (a Dredd hook, test/openapi-examples.test.ts) sends that
 * create first and puts the id it answered in place of the example's.
 */
export const MADE_BY_CREATE: Readonly<Record<string, string>> = {
  [API_KEY_EXAMPLES.id]: 'createApiKey',
  [DELEGATED_EXAMPLES.id]: 'createDelegatedSession',
  [GUEST_EXAMPLES.id]: 'createGuest',
  [WEBHOOK_EXAMPLES.id]: 'createWebhook',
};
