/**
 * Custom domains (spec part 4; D13, D15): a domain is registered pending with its TXT
 * record, is not verified without it, is verified once svc's emulated DNS publishes it
 * (docs/control-plane.md#emulated-dns), and is removed once.
 */
import { envelope, list } from '../../schemas/common.js';
import { RecordedEvent } from '../../schemas/control.js';
import { TxtRecord } from '../../schemas/dns.js';
import { CustomDomain, DeletedDomain, type CustomDomainView } from '../../schemas/custom-domains.js';
import { Tenant } from '../../schemas/tenant.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { EVENTS_LOOKED_AT, removal } from './support.js';

export const customDomainChecks: Check[] = [
  {
    id: 'custom-domains.lifecycle',
    tags: ['custom-domains'],
    description:
      'register a domain (201, pending, TXT _svc-verify record); verify without the record (400) leaves it pending, as registering it again (200) reads; with the record published in the emulated DNS, verify (200) makes it verified, as registering it again, GET /tenant (its https origin allowed for WebAuthn) and the domain.verified event read; remove it (200): verify and remove are then 404, GET /tenant no longer allows it, and it registers anew (201, pending)',
    spec: 'part 4 (Custom domains), D13, D15',
    profile: 'emulator',
    creates: true,
    // The API has no GET of the domain: registering the same domain again answers the record as it stands (D15), GET /tenant the origins a verified one adds, and the event log its domain.verified.
    readsBack: ['registerCustomDomain', 'verifyCustomDomain', 'removeCustomDomain'],
    run: async (ctx) => {
      const domain = `${ctx.runId}.conformance.example`;
      const result = await ctx.client.customDomains.register(domain);
      if (result.status === 409 && result.text.includes('already has'))
        throw new CheckSkip('the tenant already has a custom domain; the suite does not touch it');
      expectStatus(result, 201, 'D15: POST /custom-domains registers the domain');
      ctx.defer({ description: `custom domain ${domain}`, run: () => removal(ctx.client.customDomains.remove()) });
      const { data } = expectShape(result, envelope(CustomDomain), 'D15: the domain and its verification record');
      expect(data.status === 'pending', 'D13: a new domain is pending until its TXT record is verified', `status ${data.status}`, result);
      expect(
        data.verification.name === `_svc-verify.${domain}` && data.verification.value.startsWith('svc-verify='),
        'D13: verification is a TXT record _svc-verify.<domain> = svc-verify=<token>',
        JSON.stringify(data.verification),
        result,
      );
      const verify = await ctx.client.customDomains.verify();
      expect(verify.status === 400 || verify.status === 503, 'D13: without the TXT record verification fails', `got ${verify.status}`, verify);
      const again = await ctx.client.customDomains.register(domain);
      expectStatus(again, 200, 'D15: the same domain registered again answers the record it has (200)');
      const { data: held } = expectShape(again, envelope(CustomDomain), 'D15: the domain and its verification record');
      expect(
        held.id === data.id && held.domain === domain && JSON.stringify(held.verification) === JSON.stringify(data.verification),
        'D15: registering the same domain again reads back the one registered',
        `${held.id} ${held.domain} ${JSON.stringify(held.verification)}, registered ${data.id}`,
        again,
      );
      expect(
        held.status === 'pending' && held.verifiedAt === null,
        'D13: a verification that failed leaves the domain pending',
        `status ${held.status}, verifiedAt ${held.verifiedAt}`,
        again,
      );
      await verifyThroughEmulatedDns(ctx, data);
      const removed = await ctx.client.customDomains.remove();
      expectShape(removed, envelope(DeletedDomain), 'D15: DELETE /custom-domains answers { domain, deleted }');
      expectErrorCode(await ctx.client.customDomains.verify(), 404, 'not_found', 'part 7: a removed domain is not found to verify (404)');
      expectErrorCode(await ctx.client.customDomains.remove(), 404, 'not_found', 'part 7: no domain left to remove is 404');
      // A removed domain takes back the WebAuthn origin its verification allowed (D13).
      const tenant = await ctx.client.tenant.get();
      const { origins } = expectShape(tenant, envelope(Tenant), 'D15: GET /tenant').data.settings.webauthn;
      expect(
        !origins.includes(`https://${domain}`),
        'D13: a removed domain is no WebAuthn origin of the tenant',
        `GET /tenant still allows https://${domain}`,
        tenant,
      );
      // Removed, the name is free: it registers anew, a new record, pending (the run's cleanup removes it).
      const anew = await ctx.client.customDomains.register(domain);
      expectStatus(anew, 201, 'D15: a removed domain registers anew (201)');
      const { data: fresh } = expectShape(anew, envelope(CustomDomain), 'D15: the domain and its verification record');
      expect(
        fresh.id !== data.id && fresh.status === 'pending' && fresh.verifiedAt === null,
        'D15: a removed domain registers anew, pending',
        `${fresh.id} ${fresh.status} ${fresh.verifiedAt}, removed ${data.id}`,
        anew,
      );
    },
  },
  {
    id: 'custom-domains.bad-domain',
    tags: ['custom-domains', 'validation'],
    description: 'POST /custom-domains with a name that is not a host name is 400 validation_error',
    spec: 'D6, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) =>
      expectErrorCode(
        await ctx.client.request('POST', '/custom-domains', { body: { domain: 'not a domain!' } }),
        400,
        'validation_error',
        'D15: domain is a host name',
      ),
  },
];

/**
 * Publishes the domain's TXT record in svc's emulated DNS, verifies (200, verified, verifiedAt),
 * and reads the verification back: registering the domain again, GET /tenant's WebAuthn origins,
 * and the domain.verified event. The record is removed again whatever happens.
 */
async function verifyThroughEmulatedDns(ctx: CheckContext, registered: CustomDomainView): Promise<void> {
  const { name, value } = registered.verification;
  const published = await ctx.client.emulator.dns.txt.set(name, [value]);
  expectStatus(published, 200, `PUT /_emulator/dns/txt/${name} publishes the record (docs/control-plane.md#emulated-dns)`);
  ctx.defer({ description: `emulated TXT record ${name}`, run: () => removal(ctx.client.emulator.dns.txt.remove(name)) });
  const listed = expectShape(await ctx.client.emulator.dns.txt.list(), list(TxtRecord), 'GET /_emulator/dns/txt lists the records');
  expect(
    listed.data.some((record) => record.name === name && record.values.includes(value)),
    'GET /_emulator/dns/txt lists the record PUT published',
    JSON.stringify(listed.data.filter((record) => record.name === name)),
  );

  const verify = await ctx.client.customDomains.verify();
  expectStatus(verify, 200, 'D13: with its TXT record published, POST /custom-domains/verify verifies the domain');
  const { data: verified } = expectShape(verify, envelope(CustomDomain), 'D15: the verified domain');
  expect(
    verified.id === registered.id && verified.status === 'verified' && verified.verifiedAt !== null,
    'D13: verify answers the domain verified, with verifiedAt',
    `${verified.id} ${verified.status} ${verified.verifiedAt}`,
    verify,
  );

  const again = await ctx.client.customDomains.register(registered.domain);
  expectStatus(again, 200, 'D15: the same domain registered again answers the record it has (200)');
  const { data: held } = expectShape(again, envelope(CustomDomain), 'D15: the domain and its verification record');
  expect(
    held.id === registered.id && held.status === 'verified' && held.verifiedAt === verified.verifiedAt,
    'D15: registering the verified domain again reads it verified, at the verifiedAt verify answered',
    `${held.id} ${held.status} ${held.verifiedAt}, verify answered ${verified.verifiedAt}`,
    again,
  );
  const tenant = await ctx.client.tenant.get();
  const { origins } = expectShape(tenant, envelope(Tenant), 'D15: GET /tenant').data.settings.webauthn;
  expect(
    origins.includes(`https://${registered.domain}`),
    'D13: a verified domain is a WebAuthn origin of the tenant',
    `GET /tenant allows ${JSON.stringify(origins)}`,
    tenant,
  );
  const events = expectShape(
    await ctx.client.emulator.events({ type: 'domain.verified', limit: EVENTS_LOOKED_AT }),
    list(RecordedEvent),
    'D11: GET /_emulator/events?type=domain.verified',
  );
  expect(
    events.data.some((event) => event.data['domainId'] === registered.id && event.data['verifiedAt'] === verified.verifiedAt),
    'D8: verifying a domain records domain.verified, with its verifiedAt',
    `no domain.verified for ${registered.id} among the newest ${EVENTS_LOOKED_AT}`,
  );

  const unpublished = await ctx.client.emulator.dns.txt.remove(name);
  expectStatus(unpublished, 200, `DELETE /_emulator/dns/txt/${name} removes the record`);
  const gone = await ctx.client.emulator.dns.txt.list();
  expect(
    gone.ok && !gone.body.data.some((record) => record.name === name),
    'GET /_emulator/dns/txt no longer lists a record DELETE removed',
    JSON.stringify(gone.body),
    gone,
  );
}
