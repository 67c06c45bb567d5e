/** /v1/custom-domains: register the tenant's domain, verify it over DNS, remove it. */
import { customDomainsOperations } from '../operations/custom-domains.js';
import type { Runtime } from '../runtime.js';
import { customDomainView, registerDomain, removeDomain, verifyDomain } from '../services/custom-domains.js';
import { newRouter } from './router.js';

export function customDomainsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(customDomainsOperations.registerCustomDomain, async (c) => {
      const { record, created } = await registerDomain(rt, c.get('tenant').id, c.req.valid('json').domain);
      return created ? c.json({ data: customDomainView(record) }, 201) : c.json({ data: customDomainView(record) }, 200);
    })
    .openapi(customDomainsOperations.verifyCustomDomain, async (c) => c.json({ data: customDomainView(await verifyDomain(rt, c.get('tenant').id)) }, 200))
    .openapi(customDomainsOperations.removeCustomDomain, async (c) => {
      const removed = await removeDomain(rt, c.get('tenant').id);
      return c.json({ data: { domain: removed.domain, deleted: true as const } }, 200);
    });
}
