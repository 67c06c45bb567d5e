/**
 * Custom domains (spec part 4; D13, D15): a domain is registered pending with its TXT
 * record, is not verified without it, and is removed once. The suite has no DNS zone of its own.
 */
import { envelope } from '../../schemas/common.js';
import { CustomDomain, DeletedDomain } from '../../schemas/custom-domains.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check } from '../types.js';
import { removal } from './support.js';

export const customDomainChecks: Check[] = [
  {
    id: 'custom-domains.lifecycle',
    tags: ['custom-domains'],
    description: 'register a domain (201, pending, TXT _svc-verify record), verify without the record (400), remove it (200), remove again (404)',
    spec: 'part 4 (Custom domains), D13, D15',
    profile: 'emulator',
    creates: true,
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
      const removed = await ctx.client.customDomains.remove();
      expectShape(removed, envelope(DeletedDomain), 'D15: DELETE /custom-domains answers { domain, deleted }');
      expectErrorCode(await ctx.client.customDomains.remove(), 404, 'not_found', 'part 7: no domain left to remove is 404');
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
