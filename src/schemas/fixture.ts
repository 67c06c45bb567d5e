/** Seed files (`fixtures/default.json`, `svc serve --seed FILE`, `POST /_emulator/seed`). */
import { z } from '@hono/zod-openapi';
import { coseKeyProblem } from '../cose-key.js';
import { parseDuration } from '../duration.js';
import { secret } from './secret.js';
import { PLANS } from './words.js';
import { API_KEY_PATTERN } from './api-keys.js';
import { CreateAppBody } from './apps.js';
import { Duration, IsoTimestamp, idOf } from './common.js';
import { UpdateTenantBody } from './tenant.js';
import { Email, TrustLevel } from './users.js';
import { CreateWebhookBody } from './webhooks.js';

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url without padding');

/**
 * A passkey of the user, as registering one stores it: only its public part. `publicKey` is the
 * COSE key the authenticator reported, checked here to be an ES256, EdDSA or RS256 public key.
 */
const FixturePasskey = z
  .object({
    id: idOf('pky').optional(),
    credentialId: Base64Url.max(1366, 'at most 1,023 bytes'),
    publicKey: Base64Url.max(2048).superRefine((text, ctx) => {
      const problem = coseKeyProblem(text);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    }),
    /** The WebAuthn user handle; one per user (its first passkey's), else derived from the user's id. */
    userHandle: Base64Url.max(86, 'at most 64 bytes').optional(),
    counter: z.number().int().min(0).max(0xffff_ffff).default(0),
    /** As the authenticator reported them (`internal`, `hybrid`, `usb` …); login options hand them back to the browser. */
    transports: z.array(z.string().min(1).max(32)).max(16).default([]),
    deviceType: z.enum(['singleDevice', 'multiDevice']).default('singleDevice'),
    backedUp: z.boolean().default(false),
    createdAt: IsoTimestamp.optional(),
  })
  .refine((passkey) => !passkey.backedUp || passkey.deviceType === 'multiDevice', {
    message: 'only a multiDevice passkey can be backed up',
    path: ['backedUp'],
  });

/**
 * A guest user's open guest session. It is opened when the fixture is seeded (a start on an
 * empty store, a reset), at the emulator clock's now, and lives `expiresIn` from then (default:
 * the tenant's guestTtl), so a seeded guest is live after every start and reset however the
 * clock was moved. Its session token is drawn at random and shown to no one.
 */
const FixtureGuestSession = z.object({
  id: idOf('gst').optional(),
  expiresIn: Duration.refine((text) => (parseDuration(text) ?? 0) > 0, 'longer than zero').optional(),
});

const FixtureUser = z
  .object({
    id: idOf('usr').optional(),
    email: Email.nullable(),
    name: z.string().trim().min(1).max(200).nullable().optional(),
    trustLevel: TrustLevel,
    createdAt: IsoTimestamp.optional(),
    guestSession: FixtureGuestSession.optional(),
    passkeys: z.array(FixturePasskey).max(20).default([]),
  })
  .refine((user) => user.trustLevel === 'guest' || user.email !== null, { message: 'only a guest may have no email', path: ['email'] })
  .refine((user) => user.guestSession === undefined || user.trustLevel === 'guest', {
    message: 'only a guest (trustLevel guest) has a guest session',
    path: ['guestSession'],
  })
  .refine((user) => user.passkeys.length === 0 || user.email !== null, {
    message: 'a passkey signs in by e-mail: only a user with an email may have passkeys',
    path: ['passkeys'],
  });

/**
 * A webhook of the tenant. Seeding delivers nothing to it (no event exists yet); it hears the
 * events recorded after, while `enabled`. Without `secret` its signing secret is drawn at random.
 */
const FixtureWebhook = z.object({
  id: idOf('whk').optional(),
  url: CreateWebhookBody.shape.url,
  events: CreateWebhookBody.shape.events,
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().default(true),
  secret: secret(z.string().regex(/^whsec_[0-9A-Za-z]{32}$/, 'whsec_ followed by 32 letters or digits')).optional(),
  createdAt: IsoTimestamp.optional(),
});

const FixtureTenant = z.object({
  id: idOf('ten').optional(),
  name: z.string().trim().min(1).max(100),
  plan: z.enum(PLANS).default('pro'),
  apiKeys: z
    .array(
      z.object({
        id: idOf('key').optional(),
        name: z.string().trim().min(1).max(100),
        key: secret(z.string().regex(API_KEY_PATTERN, 'sk_test_ followed by 32 letters or digits')),
      }),
    )
    .min(1, 'a tenant needs at least one API key'),
  settings: UpdateTenantBody.shape.settings,
  apps: z.array(CreateAppBody.extend({ id: idOf('app').optional() })).default([]),
  users: z.array(FixtureUser).default([]),
  webhooks: z.array(FixtureWebhook).max(100).default([]),
});

/**
 * Names the fixture must not repeat, so a duplicate is refused with its path by parseFixture
 * (before the store is opened) rather than by the store's unique indexes later.
 */
function refuseRepeats(fixture: { tenants: Array<z.output<typeof FixtureTenant>> }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>();
  const once = (key: string, path: Array<string | number>, what: string): void => {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path.join('.'));
    else ctx.addIssue({ code: 'custom', path, message: `${what} repeats ${first}` });
  };
  fixture.tenants.forEach((tenant, t) => {
    if (tenant.id !== undefined) once(`tenant:${tenant.id}`, ['tenants', t, 'id'], `the tenant id ${tenant.id}`);
    for (const [list, records] of [
      ['apiKeys', tenant.apiKeys],
      ['apps', tenant.apps],
      ['users', tenant.users],
      ['webhooks', tenant.webhooks],
    ] as const) {
      records.forEach((record, r) => {
        if (record.id !== undefined) once(`id:${record.id}`, ['tenants', t, list, r, 'id'], `the id ${record.id}`);
      });
    }
    tenant.users.forEach((user, u) => {
      const at = ['tenants', t, 'users', u];
      if (user.guestSession?.id !== undefined) once(`id:${user.guestSession.id}`, [...at, 'guestSession', 'id'], `the id ${user.guestSession.id}`);
      user.passkeys.forEach((passkey, p) => {
        if (passkey.id !== undefined) once(`id:${passkey.id}`, [...at, 'passkeys', p, 'id'], `the id ${passkey.id}`);
        once(`credential:${t}:${passkey.credentialId}`, [...at, 'passkeys', p, 'credentialId'], 'the credential id');
      });
      const handles = new Set(user.passkeys.flatMap((passkey) => (passkey.userHandle === undefined ? [] : [passkey.userHandle])));
      if (handles.size > 1) ctx.addIssue({ code: 'custom', path: [...at, 'passkeys'], message: "a user's passkeys share one userHandle" });
    });
    tenant.apiKeys.forEach((key, k) => once(`key:${key.key}`, ['tenants', t, 'apiKeys', k, 'key'], 'the API key'));
    tenant.apps.forEach((app, a) => once(`app:${t}:${app.name.toLowerCase()}`, ['tenants', t, 'apps', a, 'name'], `the app name "${app.name}"`));
    tenant.users.forEach((user, u) => {
      if (user.email !== null) once(`email:${t}:${user.email.toLowerCase()}`, ['tenants', t, 'users', u, 'email'], `the email ${user.email}`);
    });
  });
}

export const Fixture = z
  .object({ tenants: z.array(FixtureTenant).min(1, 'a fixture needs at least one tenant') })
  .superRefine(refuseRepeats)
  .openapi('Fixture');

export type FixtureInput = z.input<typeof Fixture>;
export type FixtureData = z.output<typeof Fixture>;
