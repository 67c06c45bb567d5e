/**
 * Custom domains (spec part 4; D13, D15): a domain is registered pending with its TXT
 * record, is not verified without it, and is removed once. The suite has no DNS zone of its own.
 */
import { envelope } from '../../schemas/common.js';
import { CustomDomain, DeletedDomain } from '../../schemas/custom-domains.js';
import { Tenant } from '../../schemas/tenant.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';
import { removal } from './support.js';

export const customDomainChecks: Check[] = [
  {
    id: 'custom-domains.lifecycle',
    tags: ['custom-domains'],
    description:
      'register a domain (201, pending, TXT _svc-verify record); verify without the record (400) leaves it pending, as registering it again (200) reads; remove it (200): verify and remove are then 404, and it registers anew (201); GET /tenant allows it as no WebAuthn origin',
    spec: 'part 4 (Custom domains), D13, D15',
    profile: 'emulator',
    creates: true,
    // The API has no GET of the domain: registering the same domain again answers the record as it stands (D15), and GET /tenant the origins a verified one adds.
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
      const removed = await ctx.client.customDomains.remove();
      expectShape(removed, envelope(DeletedDomain), 'D15: DELETE /custom-domains answers { domain, deleted }');
      expectErrorCode(await ctx.client.customDomains.verify(), 404, 'not_found', 'part 7: a removed domain is not found to verify (404)');
      expectErrorCode(await ctx.client.customDomains.remove(), 404, 'not_found', 'part 7: no domain left to remove is 404');
      // Removed, the name is free: it registers anew, a new record (the run's cleanup removes it).
      const anew = await ctx.client.customDomains.register(domain);
      expectStatus(anew, 201, 'D15: a removed domain registers anew (201)');
      const { data: fresh } = expectShape(anew, envelope(CustomDomain), 'D15: the domain and its verification record');
      expect(
        fresh.id !== data.id && fresh.status === 'pending',
        'D15: a removed domain registers anew',
        `${fresh.id} ${fresh.status}, removed ${data.id}`,
        anew,
      );
      // A domain allows its https origin for WebAuthn once verified (D13): none of these writes verified one.
      const tenant = await ctx.client.tenant.get();
      const { origins } = expectShape(tenant, envelope(Tenant), 'D15: GET /tenant').data.settings.webauthn;
      expect(
        !origins.includes(`https://${domain}`),
        'D13: a domain not verified is no WebAuthn origin of the tenant',
        `GET /tenant allows https://${domain}`,
        tenant,
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
