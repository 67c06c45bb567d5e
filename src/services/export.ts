/**
 * The store as a fixture: what `svc export` writes and `--seed` / `svc seed` take
 * back. The fixture format holds tenants, their settings, API keys, apps, users with their
 * passkeys and open guest sessions, and webhooks, each with its id; it has no place for events,
 * deliveries, sign-in sessions and the rest, which are counted as left out.
 * An API key is stored only as its hash (D3), so a key can be written out only when its value
 * is known: one of the fixture files' keys, or one made by `POST /_emulator/tenants` in this
 * process. A tenant none of whose keys is known gets a new key, named in `replacedKeys`.
 */
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { Fixture, type FixtureData } from '../schemas/fixture.js';
import { hideSecrets, REDACTED, secretPaths, type SecretPath } from '../schemas/secret.js';
import { formatDuration } from '../duration.js';
import { COLLECTION_NAMES, type GuestRecord, type PasskeyRecord, type TenantRecord, type UserRecord } from '../store/records.js';
import { hashSecret, newApiKeyValue } from './api-keys.js';
import { guestStatus } from './guests.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile } from './seed.js';
import { knownKeyValues } from './test-tenants.js';

type ExportedTenant = FixtureData['tenants'][number];
type ExportedUser = ExportedTenant['users'][number];

/** The collections the fixture holds (wallets follow their users); every other record is counted as left out. */
const HELD = new Set(['tenants', 'apiKeys', 'apps', 'users', 'wallets', 'webhooks', 'passkeys', 'guests']);

export interface ExportResult {
  fixture: FixtureData;
  /** Tenants whose keys could not be written out, with the new key the fixture gives them instead. */
  replacedKeys: Array<{ tenantId: string; tenantName: string; key: string }>;
  /** Records of each collection the fixture format has no place for. */
  leftOut: Record<string, number>;
}

/** Key values by their hash: the fixture files' keys and the keys made for test tenants here. */
async function knownKeys(rt: Runtime): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  const files = new Set([DEFAULT_FIXTURE_PATH, rt.options.seedFile ?? DEFAULT_FIXTURE_PATH]);
  for (const file of files) {
    // A fixture that cannot be read any more only means its keys are not known.
    const fixture = await loadFixtureFile(file).catch(() => null);
    for (const tenant of fixture?.tenants ?? []) for (const { key } of tenant.apiKeys) known.set(hashSecret(key), key);
  }
  for (const key of knownKeyValues(rt)) known.set(hashSecret(key), key);
  return known;
}

function settingsOf(tenant: TenantRecord): ExportedTenant['settings'] {
  const { telegram, ...rest } = tenant.settings;
  return {
    ...rest,
    webauthn: { ...tenant.settings.webauthn },
    telegram: { botUsername: telegram.botUsername, ...(telegram.botToken === null ? {} : { botToken: telegram.botToken }) },
  };
}

let fixtureSecrets: SecretPath[] | undefined;

/**
 * The export with the secrets its fixture's schema marks (API keys, bot tokens, webhook secrets) reading
 * [redacted], for a file that may be read by others than its owner (`svc export` without
 * --include-secrets, `svc exec`'s artefacts). A replaced key is one of the fixture's keys, so it
 * is hidden too. Such a fixture no longer seeds an emulator: its keys are gone.
 */
export function withoutSecrets(result: ExportResult): ExportResult {
  fixtureSecrets ??= secretPaths(Fixture);
  return {
    ...result,
    fixture: hideSecrets(result.fixture, fixtureSecrets),
    replacedKeys: result.replacedKeys.map((replaced) => ({ ...replaced, key: REDACTED })),
  };
}

/** A user as the fixture holds it: with its passkeys, and its guest session while that is open. */
function exportUser(rt: Runtime, user: UserRecord, passkeys: readonly PasskeyRecord[], guest: GuestRecord | undefined): ExportedUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    trustLevel: user.trustLevel,
    createdAt: user.createdAt,
    ...(guest === undefined || user.trustLevel !== 'guest'
      ? {}
      : { guestSession: { id: guest.id, expiresIn: formatDuration(Date.parse(guest.expiresAt) - rt.clock.nowMs()) } }),
    // A passkey signs in by e-mail: a user without one keeps none in the fixture.
    passkeys:
      user.email === null
        ? []
        : passkeys
            .filter((passkey) => passkey.userId === user.id)
            .map((passkey) => ({
              id: passkey.id,
              credentialId: passkey.credentialId,
              publicKey: passkey.publicKey,
              userHandle: passkey.userHandle,
              counter: passkey.counter,
              transports: passkey.transports,
              deviceType: passkey.deviceType,
              backedUp: passkey.backedUp,
              createdAt: passkey.createdAt,
            })),
  };
}

/** Writes the store, or one tenant, as a fixture document (GET /_emulator/export). */
export async function exportFixture(rt: Runtime, tenantId?: string): Promise<ExportResult> {
  let tenants: TenantRecord[];
  if (tenantId === undefined) tenants = [...rt.store.all('tenants')];
  else {
    const tenant = rt.store.get('tenants', tenantId);
    if (!tenant) throw notFound('tenant', tenantId);
    tenants = [tenant];
  }
  if (tenants.length === 0) throw new ApiError('conflict', 'the store holds no tenant to export');
  const known = await knownKeys(rt);
  const replacedKeys: ExportResult['replacedKeys'] = [];
  const leftOut: Record<string, number> = {};
  const skip = (name: string, count: number): void => {
    if (count > 0) leftOut[name] = (leftOut[name] ?? 0) + count;
  };
  const exported = tenants.map((tenant): ExportedTenant => {
    const active = rt.store.ofTenant('apiKeys', tenant.id).filter((key) => key.revokedAt === null);
    const apiKeys = active.flatMap((key): ExportedTenant['apiKeys'] => {
      const value = known.get(key.keyHash);
      return value === undefined ? [] : [{ id: key.id, name: key.name, key: value }];
    });
    skip('apiKeys', active.length - apiKeys.length);
    if (apiKeys.length === 0) {
      const key = newApiKeyValue();
      apiKeys.push({ name: 'exported', key });
      replacedKeys.push({ tenantId: tenant.id, tenantName: tenant.name, key });
    }
    const users = rt.store.ofTenant('users', tenant.id);
    // The fixture format gives an e-mail to everyone but guests (a Telegram sign-up has none).
    const kept = users.filter((user) => user.email !== null || user.trustLevel === 'guest');
    skip('users', users.length - kept.length);
    const passkeys = rt.store.ofTenant('passkeys', tenant.id);
    // An open guest session is opened again at seeding, for the time it had left.
    const openGuests = new Map(
      rt.store
        .ofTenant('guests', tenant.id)
        .filter((guest) => guestStatus(rt, guest) === 'active')
        .map((guest): [string, GuestRecord] => [guest.userId, guest]),
    );
    const exportedUsers = kept.map((user) => exportUser(rt, user, passkeys, openGuests.get(user.id)));
    const guestsKept = exportedUsers.filter((user) => user.guestSession !== undefined).length;
    skip('guests', rt.store.count('guests', tenant.id) - guestsKept);
    skip('passkeys', passkeys.length - exportedUsers.reduce((sum, user) => sum + user.passkeys.length, 0));
    // A kept guest's sign-in session is made anew with it; the others are left out.
    skip('sessions', rt.store.count('sessions', tenant.id) - guestsKept);
    for (const name of COLLECTION_NAMES) if (!HELD.has(name) && name !== 'sessions') skip(name, rt.store.count(name, tenant.id));
    return {
      id: tenant.id,
      name: tenant.name,
      plan: tenant.plan,
      apiKeys,
      settings: settingsOf(tenant),
      apps: rt.store
        .ofTenant('apps', tenant.id)
        .map((app) => ({ id: app.id, name: app.name, description: app.description, allowedOrigins: app.allowedOrigins })),
      users: exportedUsers,
      webhooks: rt.store.ofTenant('webhooks', tenant.id).map((webhook) => ({
        id: webhook.id,
        url: webhook.url,
        events: webhook.events as ExportedTenant['webhooks'][number]['events'],
        description: webhook.description,
        enabled: webhook.enabled,
        secret: rt.sealer.open(webhook.secret).toString('utf8'),
        createdAt: webhook.createdAt,
      })),
    };
  });
  const fixture: FixtureData = { tenants: exported };
  // What is written must be what --seed takes back; a mismatch is svc's bug, said plainly.
  const checked = Fixture.safeParse(fixture);
  if (!checked.success) throw new Error(`the exported fixture does not pass its own schema: ${checked.error.message}`);
  return { fixture, replacedKeys, leftOut };
}
