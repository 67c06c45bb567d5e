/**
 * API keys (D3): `sk_test_` + 32 base62; only the SHA-256 hash is stored, found by
 * hash and compared in constant time; the value is answered once, at creation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { ApiKeyView } from '../schemas/api-keys.js';
import type { ApiKeyRecord, TenantRecord } from '../store/records.js';
import { emitEvent } from './events.js';

export const API_KEY_PREFIX = 'sk_test_';

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function newApiKeyValue(): string {
  return `${API_KEY_PREFIX}${randomBase62(32)}`;
}

/** The stored record for a key value (its hash, never the value). */
export function apiKeyRecord(tenantId: string, name: string, value: string, createdAt: string): ApiKeyRecord {
  return {
    id: newId('key'),
    tenantId,
    name,
    keyHash: hashSecret(value),
    prefix: value.slice(0, API_KEY_PREFIX.length + 4),
    last4: value.slice(-4),
    createdAt,
    revokedAt: null,
  };
}

export function apiKeyView(key: ApiKeyRecord): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    status: key.revokedAt === null ? 'active' : 'revoked',
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
  };
}

/**
 * Hashes of the key values presented lately: a client sends the same key on every call, and
 * hashing it each time was a tenth of a GET's CPU. Only value → hash is kept, so a revoked key
 * is still refused at once. Emptied when full.
 */
const recentKeyHashes = new Map<string, string>();
const RECENT_KEY_HASHES = 256;
/** Longer values (no key is) are hashed each time rather than kept. */
const MEMO_MAX_LENGTH = 128;

export function presentedKeyHash(value: string): string {
  if (value.length > MEMO_MAX_LENGTH) return hashSecret(value);
  let hash = recentKeyHashes.get(value);
  if (hash === undefined) {
    if (recentKeyHashes.size >= RECENT_KEY_HASHES) recentKeyHashes.clear();
    recentKeyHashes.set(value, (hash = hashSecret(value)));
  }
  return hash;
}

/**
 * The tenant and key a request's `x-api-key` acts for. Missing → 401 missing_api_key;
 * unknown or revoked → 401 invalid_api_key.
 */
export function authenticate(rt: Runtime, value: string | undefined): { tenant: TenantRecord; key: ApiKeyRecord } {
  if (value === undefined || value.trim() === '') {
    throw new ApiError('missing_api_key', 'Send your API key in the x-api-key header');
  }
  const hash = presentedKeyHash(value.trim());
  const key = rt.store.findByKey('apiKeys', `hash:${hash}`);
  // The map lookup finds the candidate; the constant-time compare is the check itself.
  const matches = key !== undefined && timingSafeEqual(Buffer.from(key.keyHash, 'hex'), Buffer.from(hash, 'hex'));
  if (!key || !matches || key.revokedAt !== null) {
    throw new ApiError('invalid_api_key', key?.revokedAt ? 'This API key has been revoked' : 'The API key is not valid');
  }
  const tenant = rt.store.get('tenants', key.tenantId);
  if (!tenant) throw new ApiError('invalid_api_key', 'The API key is not valid');
  return { tenant, key };
}

export function listApiKeys(rt: Runtime, tenantId: string): ApiKeyView[] {
  return rt.store.newestFirst('apiKeys', tenantId).map(apiKeyView);
}

export async function createApiKey(rt: Runtime, tenantId: string, name: string): Promise<ApiKeyView & { key: string }> {
  const value = newApiKeyValue();
  const record = apiKeyRecord(tenantId, name, value, rt.clock.iso());
  await rt.store.write(() => {
    rt.store.insert('apiKeys', record);
    emitEvent(rt, tenantId, 'api_key.created', { apiKeyId: record.id, name, prefix: record.prefix, last4: record.last4 });
  });
  return { ...apiKeyView(record), key: value };
}

/** Revokes a key; it answers 401 from the next request on. Revoking twice answers the same. */
export async function revokeApiKey(rt: Runtime, tenantId: string, id: string): Promise<ApiKeyView> {
  const key = rt.store.getOwned('apiKeys', tenantId, id);
  if (!key) throw notFound('API key', id);
  if (key.revokedAt !== null) return apiKeyView(key);
  const revoked = await rt.store.write(() => {
    const next = rt.store.update('apiKeys', id, { revokedAt: rt.clock.iso() });
    emitEvent(rt, tenantId, 'api_key.revoked', { apiKeyId: id, name: key.name });
    return next;
  });
  return apiKeyView(revoked);
}
