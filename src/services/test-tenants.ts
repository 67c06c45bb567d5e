/**
 * Tenants made for one test worker each: a throwaway tenant with a fresh API key,
 * copied from a tenant of the emulator's fixture (or empty), reset on its own without touching
 * any other tenant, and removed with everything it holds. Isolation is the API's own (D3); this
 * makes a tenant the unit a parallel test run hands out.
 */
import { ApiError, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { CreateTenantInput } from '../schemas/harness.js';
import type { FixtureData } from '../schemas/fixture.js';
import { COLLECTION_NAMES, type TenantRecord } from '../store/records.js';
import { newApiKeyValue } from './api-keys.js';
import { DEFAULT_FIXTURE_PATH, FixtureError, insertSeed, loadFixtureFile, prepareSeed, seedFixture } from './seed.js';
import { requestJournal } from './request-journal.js';

type FixtureTenant = FixtureData['tenants'][number];

export interface CreatedTenant {
  tenant: { id: string; name: string; plan: string };
  /** The new key's value: shown once, as `POST /v1/api-keys` shows it (D3). */
  apiKey: string;
  /** The fixture tenant it was copied from; null when made empty. */
  template: string | null;
}

/**
 * Which fixture tenant each tenant made here was copied from, so a reset seeds the same again.
 * Kept in memory: a tenant outlives it only in a store shared with another process, whose
 * reset then names the template, or finds the fixture tenant of the same id or name.
 */
const templates = new WeakMap<Runtime, Map<string, string | null>>();
const templatesOf = (rt: Runtime): Map<string, string | null> => {
  let map = templates.get(rt);
  if (!map) templates.set(rt, (map = new Map<string, string | null>()));
  return map;
};

/**
 * The key values made here, kept in this process's memory (never in the store, which holds
 * only hashes, D3) so that `svc export` can write a test tenant out with the key its worker uses.
 */
const madeKeys = new WeakMap<Runtime, Set<string>>();

/** Every key value createTestTenant() made in this process. */
export function knownKeyValues(rt: Runtime): ReadonlySet<string> {
  return madeKeys.get(rt) ?? new Set();
}

async function fixtureOf(rt: Runtime): Promise<FixtureData> {
  try {
    return await loadFixtureFile(rt.options.seedFile ?? DEFAULT_FIXTURE_PATH);
  } catch (error) {
    if (error instanceof FixtureError) throw new ApiError('conflict', `cannot read the fixture: ${error.message.split('\n').join(' ')}`);
    throw error;
  }
}

/** The fixture tenant a template names (its id or name); undefined names the first, null none. */
function findTemplate(fixture: FixtureData, template: string | null | undefined): FixtureTenant | null {
  if (template === null) return null;
  if (template === undefined) return fixture.tenants[0]!;
  const found = fixture.tenants.find((tenant) => tenant.id === template || tenant.name.toLowerCase() === template.toLowerCase());
  if (!found) {
    const names = fixture.tenants.map((tenant) => tenant.name).join(', ');
    throw new ApiError('validation_error', `no tenant "${template}" in the fixture; its tenants are ${names}`, [
      { path: 'template', message: 'not a tenant of the fixture', in: 'body' },
    ]);
  }
  return found;
}

/**
 * A fixture entry for a new tenant: the template's settings, apps and users, a fresh id and key.
 * Not its webhooks, passkeys or guest sessions: a test tenant starts with nothing that signs in
 * or hears events, so a test (and the conformance suite) counts only what it makes.
 */
function copyOf(source: FixtureTenant | null, name: string, plan: FixtureTenant['plan'] | undefined, key: string): FixtureTenant {
  return {
    name,
    plan: plan ?? source?.plan ?? 'pro',
    apiKeys: [{ name: 'test worker', key }],
    settings: source?.settings,
    // The template's record ids are its own: the copy's are derived from its tenant's.
    apps: (source?.apps ?? []).map(({ id: _id, ...app }) => app),
    users: (source?.users ?? []).map(({ id: _id, guestSession: _guest, ...user }) => ({ ...user, passkeys: [] })),
    webhooks: [],
  };
}

/** Makes a tenant with a fresh API key, from a fixture tenant or empty (POST /_emulator/tenants). */
export async function createTestTenant(rt: Runtime, input: CreateTenantInput): Promise<CreatedTenant> {
  const fixture = await fixtureOf(rt);
  const source = findTemplate(fixture, input.template);
  const apiKey = newApiKeyValue();
  const name = input.name ?? `${source?.name ?? 'Test tenant'} (test ${rt.store.count('tenants') + 1})`;
  const [tenant] = await seedFixture(rt, { tenants: [copyOf(source, name, input.plan, apiKey)] });
  const template = source === null ? null : (source.id ?? source.name);
  templatesOf(rt).set(tenant!.id, template);
  if (!madeKeys.has(rt)) madeKeys.set(rt, new Set());
  madeKeys.get(rt)!.add(apiKey);
  return { tenant: { id: tenant!.id, name: tenant!.name, plan: tenant!.plan }, apiKey, template };
}

function existing(rt: Runtime, tenantId: string): TenantRecord {
  const tenant = rt.store.get('tenants', tenantId);
  if (!tenant) throw notFound('tenant', tenantId);
  return tenant;
}

/** Removes every record of the tenant but, when `keep` says so, its API keys. Call inside `rt.store.write()`. */
function removeRecordsOf(rt: Runtime, tenantId: string, keepKeys: boolean): number {
  let removed = 0;
  for (const name of COLLECTION_NAMES) {
    if (name === 'tenants' || (keepKeys && name === 'apiKeys')) continue;
    for (const record of rt.store.ofTenant(name, tenantId)) if (rt.store.remove(name, record.id)) removed++;
  }
  return removed;
}

/**
 * Empties one tenant and seeds its template again, in one durable write; its id and API keys
 * stay, so the worker holding them goes on. The template is the body's, else the one it was
 * made from, else the fixture tenant of the same id or name, else none (an empty tenant).
 */
export async function resetTestTenant(
  rt: Runtime,
  tenantId: string,
  template?: string | null,
): Promise<{ tenant: { id: string; name: string; plan: string }; removed: number }> {
  const tenant = existing(rt, tenantId);
  const fixture = await fixtureOf(rt);
  const remembered = templatesOf(rt).get(tenantId);
  const named = template !== undefined ? template : remembered !== undefined ? remembered : sameTenant(fixture, tenant);
  const source = findTemplate(fixture, named);
  // Seeded under the same id with no key of its own: the keys the tenant holds stay.
  const entry = { ...copyOf(source, tenant.name, tenant.plan, newApiKeyValue()), id: tenantId, apiKeys: [] };
  const prepared = await prepareSeed(rt, { tenants: [entry] });
  const removed = await rt.store.write(() => {
    const count = removeRecordsOf(rt, tenantId, true);
    // A new record (and createdAt) also tells the usage meter that counts from before the reset are not this tenant's.
    rt.store.remove('tenants', tenantId);
    insertSeed(rt, prepared);
    return count;
  });
  requestJournal(rt).clear(tenantId);
  return { tenant: { id: tenant.id, name: tenant.name, plan: tenant.plan }, removed };
}

/** The fixture tenant of the same id, else of the same name; null when there is none. */
function sameTenant(fixture: FixtureData, tenant: TenantRecord): string | null {
  const found = fixture.tenants.find((entry) => entry.id === tenant.id) ?? fixture.tenants.find((entry) => entry.name === tenant.name);
  return found === undefined ? null : (found.id ?? found.name);
}

/** Removes a tenant with everything it holds (DELETE /_emulator/tenants/:id). */
export async function removeTestTenant(rt: Runtime, tenantId: string): Promise<{ id: string; deleted: true; removed: number }> {
  existing(rt, tenantId);
  const removed = await rt.store.write(() => {
    const count = removeRecordsOf(rt, tenantId, false);
    rt.store.remove('tenants', tenantId);
    return count + 1;
  });
  templatesOf(rt).delete(tenantId);
  requestJournal(rt).clear(tenantId);
  return { id: tenantId, deleted: true, removed };
}

/** Every tenant with how many users, apps and webhooks it holds (GET /_emulator/tenants). */
export function listTenants(rt: Runtime): Array<{ id: string; name: string; plan: string; users: number; apps: number; webhooks: number; createdAt: string }> {
  return [...rt.store.all('tenants')].map((tenant) => ({
    id: tenant.id,
    name: tenant.name,
    plan: tenant.plan,
    users: rt.store.count('users', tenant.id),
    apps: rt.store.count('apps', tenant.id),
    webhooks: rt.store.count('webhooks', tenant.id),
    createdAt: tenant.createdAt,
  }));
}
