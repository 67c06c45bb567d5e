/**
 * Custom domains (spec part 4, D13): one per tenant, unique across tenants, proved by
 * a TXT record `_svc-verify.<domain>` = `svc-verify=<token>`: the emulated one set through the
 * control plane when there is one (docs/control-plane.md#emulated-dns), else the one a resolver
 * answers. Verifying emits `domain.verified` and allows `https://<domain>` as a WebAuthn origin
 * of the tenant.
 */
import { ApiError, conflict, notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { CustomDomainView } from '../schemas/custom-domains.js';
import type { CustomDomainRecord } from '../store/records.js';
import { DnsUnavailableError, lookupTxt } from './dns.js';
import { emulatedTxt } from './dns-records.js';
import { emitEvent } from './events.js';
import { getTenant } from './tenant.js';

export const VERIFY_LABEL = '_svc-verify';
export const VERIFY_PREFIX = 'svc-verify=';

export function verificationRecord(domain: CustomDomainRecord): { type: 'TXT'; name: string; value: string } {
  return { type: 'TXT', name: `${VERIFY_LABEL}.${domain.domain}`, value: `${VERIFY_PREFIX}${domain.token}` };
}

export function customDomainView(domain: CustomDomainRecord): CustomDomainView {
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    verification: verificationRecord(domain),
    verifiedAt: domain.verifiedAt,
    createdAt: domain.createdAt,
  };
}

function originOf(domain: string): string {
  return `https://${domain}`;
}

/** The tenant's domain, or undefined. */
export function findTenantDomain(rt: Runtime, tenantId: string): CustomDomainRecord | undefined {
  return rt.store.ofTenant('customDomains', tenantId)[0];
}

function requireTenantDomain(rt: Runtime, tenantId: string): CustomDomainRecord {
  const domain = findTenantDomain(rt, tenantId);
  if (!domain) throw notFound('custom domain (register one with POST /custom-domains)');
  return domain;
}

/**
 * Registers `input` (validated by the Hostname schema) for the tenant. The same domain
 * again answers the existing record (`created: false`); another while one is registered,
 * or one that another tenant holds, is 409.
 */
export async function registerDomain(rt: Runtime, tenantId: string, input: string): Promise<{ record: CustomDomainRecord; created: boolean }> {
  const domain = input.toLowerCase().replace(/\.$/, '');
  return rt.store.write(() => {
    const current = findTenantDomain(rt, tenantId);
    if (current?.domain === domain) return { record: current, created: false };
    if (current) {
      throw conflict(`this tenant already has the custom domain ${current.domain}; remove it with DELETE /custom-domains first`, [
        { path: 'domain', message: `one domain per tenant; ${current.domain} is registered` },
      ]);
    }
    if (rt.store.findByKey('customDomains', `domain:${domain}`)) {
      throw conflict(`the domain ${domain} is registered by another tenant`, [{ path: 'domain', message: 'already taken' }]);
    }
    const now = rt.clock.iso();
    const record: CustomDomainRecord = {
      id: newId('dom'),
      tenantId,
      domain,
      token: randomBase62(32),
      status: 'pending',
      verifiedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    return { record: rt.store.insert('customDomains', record), created: true };
  });
}

/**
 * Looks the TXT record up (the emulated one first, else through the resolver) and marks the
 * domain verified when one of the values is exactly the expected one; otherwise 400
 * dns_verification_failed with what was found and where. A resolver that fails or does not
 * answer is 503 dns_unavailable.
 */
export async function verifyDomain(rt: Runtime, tenantId: string): Promise<CustomDomainRecord> {
  const domain = requireTenantDomain(rt, tenantId);
  if (domain.status === 'verified') return domain;
  const expected = verificationRecord(domain);
  const { found, source } = await txtValues(rt, expected.name);
  if (!found.includes(expected.value)) {
    const where = source === 'emulated' ? 'emulated TXT record' : 'TXT record';
    const message = found.length === 0 ? `no TXT record at ${expected.name}` : `no ${where} at ${expected.name} holds the expected value`;
    throw new ApiError('dns_verification_failed', `DNS verification failed: ${message}`, [
      { path: expected.name, message, expected: expected.value, found, source },
    ]);
  }
  return rt.store.write(() => {
    // The look-up awaited the network: re-read, in case the domain was removed meanwhile.
    const current = rt.store.getOwned('customDomains', tenantId, domain.id);
    if (!current) throw notFound('custom domain');
    if (current.status === 'verified') return current;
    const now = rt.clock.iso();
    const verified = rt.store.update('customDomains', current.id, { status: 'verified', verifiedAt: now, updatedAt: now });
    const tenant = getTenant(rt, tenantId);
    const origin = originOf(current.domain);
    if (!tenant.settings.webauthn.origins.includes(origin)) {
      const webauthn = { ...tenant.settings.webauthn, origins: [...tenant.settings.webauthn.origins, origin] };
      rt.store.update('tenants', tenantId, { settings: { ...tenant.settings, webauthn }, updatedAt: now });
    }
    emitEvent(rt, tenantId, 'domain.verified', { domainId: verified.id, domain: verified.domain, verifiedAt: now });
    return verified;
  });
}

/**
 * The TXT values at `name`: the emulated record's when the control plane set one (it stands for
 * the whole name, as a zone's record does), else what the resolver answers.
 */
async function txtValues(rt: Runtime, name: string): Promise<{ found: string[]; source: 'emulated' | 'dns' }> {
  const emulated = await emulatedTxt(rt, name);
  if (emulated !== undefined) return { found: emulated.values, source: 'emulated' };
  try {
    return { found: await lookupTxt(name, { server: rt.options.dnsServer }), source: 'dns' };
  } catch (error) {
    if (!(error instanceof DnsUnavailableError)) throw error;
    throw new ApiError('dns_unavailable', `${error.message}; try again later`, [
      { path: 'dns', message: error.message, server: rt.options.dnsServer ?? 'system', reason: error.reason },
    ]);
  }
}

/** Removes the tenant's domain, and the WebAuthn origin its verification added. */
export async function removeDomain(rt: Runtime, tenantId: string): Promise<CustomDomainRecord> {
  const domain = requireTenantDomain(rt, tenantId);
  return rt.store.write(() => {
    rt.store.remove('customDomains', domain.id);
    const tenant = getTenant(rt, tenantId);
    const origin = originOf(domain.domain);
    if (domain.status === 'verified' && tenant.settings.webauthn.origins.includes(origin)) {
      const webauthn = { ...tenant.settings.webauthn, origins: tenant.settings.webauthn.origins.filter((o) => o !== origin) };
      rt.store.update('tenants', tenantId, { settings: { ...tenant.settings, webauthn }, updatedAt: rt.clock.iso() });
    }
    return domain;
  });
}
