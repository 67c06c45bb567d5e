/**
 * Seeding (D12, D15): a fixture document (docs/testing-with-svc.md#fixture-files) becomes
 * tenants, hashed API keys, apps, users (with their parties), their passkeys and open guest
 * sessions, and webhooks. A bad fixture is refused with the path and the reason before
 * anything is written. A record keeps the id the fixture names; one without gets an id
 * derived from the id seed (docs/serve.md#stable-ids), so every start and reset seeds the
 * same ids. Keys, tokens, shares and the webhook secrets the fixture does not give are never
 * derived: they come from the CSPRNG.
 */
import { createHash } from 'node:crypto';
import { packageFile } from '../paths.js';
import { readFile } from 'node:fs/promises';
import { DEFAULT_ID_SEED, derivedId, newId, RANDOM_ID_SEED, type IdPrefix } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { Fixture, type FixtureData } from '../schemas/fixture.js';
import type { CollectionName, PasskeyRecord, TenantRecord, UserRecord, WebhookRecord } from '../store/records.js';
import { parseDuration } from '../duration.js';
import { apiKeyRecord } from './api-keys.js';
import { appRecord } from './apps.js';
import { guestTtlMs, openGuestSession } from './guests.js';
import { defaultSettings } from './tenant.js';
import { newWebhookSecret, webhookRecord } from './webhooks.js';
import { emailKey, prepareUser, type PreparedUser } from './users.js';
import { hashSecret } from './api-keys.js';

export const DEFAULT_FIXTURE_PATH = packageFile('fixtures', 'default.json');

export class FixtureError extends Error {
  override name = 'FixtureError';
}

/** A fixture's tenants with their API keys: what a start prints the keys from. */
export interface FixtureKeys {
  name: string;
  apiKeys: Array<{ key: string }>;
}

/**
 * The tenants and API keys of the fixture svc ships, read without checking the rest (svc's
 * tests check the whole file): a start on a store seeded before needs only these, to print
 * the keys, and skips the check a fixture gets before it seeds.
 */
export async function shippedFixtureKeys(): Promise<FixtureKeys[]> {
  return (JSON.parse(await readFile(DEFAULT_FIXTURE_PATH, 'utf8')) as { tenants: FixtureKeys[] }).tenants;
}

/** Checks a parsed fixture; the error names each bad field by its path. */
export function parseFixture(raw: unknown, source: string): FixtureData {
  const result = Fixture.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  throw new FixtureError(`the fixture ${source} is not valid:\n${problems.join('\n')}`);
}

export async function loadFixtureFile(path: string): Promise<FixtureData> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new FixtureError(`cannot read the fixture ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`the fixture ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseFixture(raw, path);
}

/**
 * The id of a seeded record: the one the fixture names, else one derived from the id seed and
 * `name` (a path unique in the store, such as `ten_…/users/ada@example.com`), else, with
 * `--id-seed random`, a random one.
 */
function seededId(rt: Runtime, prefix: IdPrefix, given: string | undefined, name: string): string {
  if (given !== undefined) return given;
  const seed = rt.options.idSeed ?? DEFAULT_ID_SEED;
  return seed === RANDOM_ID_SEED ? newId(prefix) : derivedId(prefix, seed, name);
}

/** The name a user's derived id comes from: its e-mail (unique in the tenant), else its place in the fixture. */
function userName(tenantId: string, user: { email: string | null }, index: number): string {
  return `${tenantId}/users/${user.email === null ? `#${index}` : user.email.toLowerCase()}`;
}

/**
 * The origin a seeded tenant's passkeys are made on when the fixture names none: the emulator's
 * own, on the port it serves (the passkey demo page is there), or 4010's before it listens.
 */
function passkeyOrigins(rt: Runtime, fallback: string[]): string[] {
  const port = rt.options.port;
  return port === undefined || port === 0 ? fallback : [`http://localhost:${port}`];
}

/** Refuses a fixture that repeats itself or collides with what the store holds. */
function checkUnique(rt: Runtime, fixture: FixtureData): void {
  const seen = new Set<string>();
  const once = (key: string, what: string): void => {
    if (seen.has(key)) throw new FixtureError(`the fixture has ${what} twice`);
    seen.add(key);
  };
  fixture.tenants.forEach((tenant, t) => {
    if (tenant.id !== undefined) {
      once(`tenant:${tenant.id}`, `tenant ${tenant.id}`);
      if (rt.store.get('tenants', tenant.id)) throw new FixtureError(`tenant ${tenant.id} already exists; reset the store first`);
    }
    const taken = (name: CollectionName, id: string | undefined): void => {
      if (id !== undefined && rt.store.get(name, id)) throw new FixtureError(`${name} ${id} already exists; reset the store first`);
    };
    for (const key of tenant.apiKeys) taken('apiKeys', key.id);
    for (const app of tenant.apps) taken('apps', app.id);
    for (const user of tenant.users) {
      taken('users', user.id);
      taken('guests', user.guestSession?.id);
      for (const passkey of user.passkeys) taken('passkeys', passkey.id);
    }
    for (const webhook of tenant.webhooks) taken('webhooks', webhook.id);
    for (const key of tenant.apiKeys) {
      once(`key:${key.key}`, `the API key ${key.key.slice(0, 12)}…`);
      if (rt.store.findByKey('apiKeys', `hash:${hashSecret(key.key)}`)) throw new FixtureError(`the API key ${key.key.slice(0, 12)}… already exists`);
    }
    for (const app of tenant.apps) once(`app:${t}:${app.name.toLowerCase()}`, `the app name "${app.name}" in tenant ${tenant.name}`);
    for (const user of tenant.users) {
      if (user.email !== null) once(emailKey(String(t), user.email), `the email ${user.email} in tenant ${tenant.name}`);
    }
  });
}

/** A guest session to open for a seeded guest user when the seed is stored. */
interface PreparedGuest {
  id: string;
  user: UserRecord;
  ttlMs: number;
}

/** A fixture made into records (keys, parties, sealed shares and secrets) but not yet stored. */
export type PreparedSeed = Array<{
  tenant: TenantRecord;
  users: PreparedUser[];
  passkeys: PasskeyRecord[];
  guests: PreparedGuest[];
  webhooks: WebhookRecord[];
  source: FixtureData['tenants'][number];
}>;

/** A user handle for a seeded user whose passkeys name none: stable, and not a secret (WebAuthn's is random bytes). */
function derivedUserHandle(userId: string): string {
  return createHash('sha256').update(`svc user handle/${userId}`).digest('base64url');
}

/** Adds a fixture's records to the store in one durable write. Answers the tenants made. */
export async function seedFixture(rt: Runtime, fixture: FixtureData): Promise<TenantRecord[]> {
  checkUnique(rt, fixture);
  const prepared = await prepareSeed(rt, fixture);
  await rt.store.write(() => insertSeed(rt, prepared));
  return prepared.map((entry) => entry.tenant);
}

/** The slow, async part of seeding, done before the store write (see insertSeed). */
export async function prepareSeed(rt: Runtime, fixture: FixtureData): Promise<PreparedSeed> {
  const now = rt.clock.iso();
  const prepared: PreparedSeed = [];
  for (const source of fixture.tenants) {
    const base = defaultSettings();
    const patch = source.settings ?? {};
    // Named by its first API key, which no other tenant of the store may hold (a tenant reset in place names its id).
    const firstKey = source.apiKeys[0]?.key ?? source.name;
    const tenant: TenantRecord = {
      id: seededId(rt, 'ten', source.id, `tenants/${hashSecret(firstKey)}`),
      name: source.name,
      plan: source.plan,
      settings: {
        apiVersion: patch.apiVersion ?? base.apiVersion,
        sessionTtl: patch.sessionTtl ?? base.sessionTtl,
        guestTtl: patch.guestTtl ?? base.guestTtl,
        mfaFreshness: patch.mfaFreshness ?? base.mfaFreshness,
        webauthn: { ...base.webauthn, origins: passkeyOrigins(rt, base.webauthn.origins), ...definedOnly(patch.webauthn ?? {}) },
        telegram: { ...base.telegram, ...definedOnly(patch.telegram ?? {}) },
      },
      createdAt: now,
      updatedAt: now,
    };
    const users: PreparedUser[] = [];
    const passkeys: PasskeyRecord[] = [];
    const guests: PreparedGuest[] = [];
    for (const [index, user] of source.users.entries()) {
      const made = await prepareUser(rt, tenant.id, {
        email: user.email,
        name: user.name ?? null,
        trustLevel: user.trustLevel,
        ...(user.createdAt === undefined ? {} : { createdAt: user.createdAt }),
      });
      // prepareUser draws random ids; a seeded user and its wallet take the fixture's or derived ones.
      const userId = seededId(rt, 'usr', user.id, userName(tenant.id, user, index));
      const walletId = seededId(rt, 'wal', undefined, `${userId}/wallet`);
      const userRecord = { ...made.user, id: userId, walletId };
      users.push({ user: userRecord, wallet: { ...made.wallet, id: walletId, userId } });
      const userHandle = user.passkeys.find((passkey) => passkey.userHandle !== undefined)?.userHandle ?? derivedUserHandle(userId);
      for (const passkey of user.passkeys) {
        passkeys.push({
          id: seededId(rt, 'pky', passkey.id, `${tenant.id}/passkeys/${passkey.credentialId}`),
          tenantId: tenant.id,
          userId,
          credentialId: passkey.credentialId,
          publicKey: passkey.publicKey,
          userHandle,
          counter: passkey.counter,
          transports: passkey.transports,
          deviceType: passkey.deviceType,
          backedUp: passkey.backedUp,
          createdAt: passkey.createdAt ?? now,
          lastUsedAt: null,
        });
      }
      if (user.guestSession !== undefined) {
        const ttlMs = parseDuration(user.guestSession.expiresIn ?? '') ?? guestTtlMs(tenant);
        guests.push({ id: seededId(rt, 'gst', user.guestSession.id, `${userId}/guest`), user: userRecord, ttlMs });
      }
    }
    const webhooks = source.webhooks.map((webhook, index) =>
      webhookRecord(rt, tenant.id, {
        ...webhook,
        id: seededId(rt, 'whk', webhook.id, `${tenant.id}/webhooks/#${index}`),
        secret: webhook.secret ?? newWebhookSecret(),
        createdAt: webhook.createdAt ?? now,
      }),
    );
    prepared.push({ tenant, users, passkeys, guests, webhooks, source });
  }
  return prepared;
}

/** Stores a prepared seed. Call inside `rt.store.write()`. */
export function insertSeed(rt: Runtime, prepared: PreparedSeed): void {
  for (const { tenant, users, passkeys, guests, webhooks, source } of prepared) {
    rt.store.insert('tenants', tenant);
    for (const key of source.apiKeys) {
      const id = seededId(rt, 'key', key.id, `${tenant.id}/apiKeys/${hashSecret(key.key)}`);
      rt.store.insert('apiKeys', { ...apiKeyRecord(tenant.id, key.name, key.key, tenant.createdAt), id });
    }
    for (const app of source.apps) {
      const id = seededId(rt, 'app', app.id, `${tenant.id}/apps/${app.name.toLowerCase()}`);
      rt.store.insert('apps', { ...appRecord(tenant.id, app, tenant.createdAt), id });
    }
    // Seeding announces nobody: it records no event, so its webhooks are sent nothing.
    for (const user of users) {
      rt.store.insert('users', user.user);
      rt.store.insert('wallets', user.wallet);
    }
    for (const passkey of passkeys) rt.store.insert('passkeys', passkey);
    // Opened now, at the clock's now, in the write that stores them: live for their whole TTL.
    for (const guest of guests) openGuestSession(rt, guest.user, guest.id, guest.ttlMs);
    for (const webhook of webhooks) rt.store.insert('webhooks', webhook);
  }
}

function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
