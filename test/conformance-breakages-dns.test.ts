/**
 * A custom domain verified through svc's emulated DNS (docs/control-plane.md#emulated-dns), read
 * back: a deployment that answers the verification as done but keeps the domain pending, or
 * does not allow its origin, fails custom-domains.lifecycle with a reason naming the rule.
 */
import { describe } from 'vitest';
import { customDomainView } from '../src/services/custom-domains.js';
import { breakageTarget, is, itFailsOnEach, onOk, type BreakageCase as Case, type Body } from '../src/test-support/breakage-run.js';
import { ACME_TENANT_ID } from '../src/test-support/harness.js';

const target = breakageTarget();
const JSON_HEADERS = { 'content-type': 'application/json' };
const VERIFY = /^\/v1\/custom-domains\/verify$/;
/** How many verifications a breakage saw, reset before each case. */
let verifications = 0;

const CASES: Case[] = [
  {
    name: 'verify answers the domain verified, and GET still reads it pending',
    breakage: {
      // The first verification (no record) goes through; the one after the record is published is answered here and never made.
      request: (q) => {
        if (!is(q, 'POST', VERIFY) || ++verifications < 2) return undefined;
        const domain = target.svc().emulator.rt.store.ofTenant('customDomains', ACME_TENANT_ID)[0]!;
        const verifiedAt = new Date().toISOString();
        return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ data: { ...customDomainView(domain), status: 'verified', verifiedAt } }) };
      },
    },
    failing: 'custom-domains.lifecycle',
    rule: 'D15: registering the verified domain again reads it verified, at the verifiedAt verify answered: ',
  },
  {
    name: 'a verified domain is not allowed as a WebAuthn origin',
    breakage: {
      response: onOk('GET', /^\/v1\/tenant$/, (b: Body) => {
        const webauthn = b['data'].settings.webauthn as { origins: string[] };
        webauthn.origins = webauthn.origins.filter((origin) => !origin.endsWith('.conformance.example'));
      }),
    },
    failing: 'custom-domains.lifecycle',
    rule: 'D13: a verified domain is a WebAuthn origin of the tenant',
  },
];

describe('the conformance suite reads back a custom domain verified through the emulated DNS', () => {
  itFailsOnEach(target, CASES, () => {
    verifications = 0;
  });
});
