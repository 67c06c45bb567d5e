/**
 * Billing (spec part 4; D13, D15): usage answers, checkout and portal sessions are made
 * at the emulated provider, and a portal link works until its expiresAt on the emulator clock,
 * not a second longer. The usage figures are checked in figures.ts.
 */
import { BillingUsage, CheckoutBody, CheckoutSession, PortalSession } from '../../schemas/billing.js';
import { envelope } from '../../schemas/common.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { emulatorNow, stepJustPast, stepToJustBefore } from './sessions.js';

const RETURN = 'http://127.0.0.1:9/conformance';

/** The emulator serves the provider's pages itself: a link's path, at the target's origin (a proxy may stand before it). */
function providerPage(ctx: CheckContext, url: string): string {
  return `${new URL(ctx.client.options.baseUrl).origin}${new URL(url).pathname}`;
}

export const billingChecks: Check[] = [
  {
    id: 'billing.usage',
    tags: ['billing'],
    description: 'GET /billing/usage answers 200 with the success envelope',
    spec: 'part 4 (Billing)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectSuccess(await ctx.client.request('GET', '/billing/usage'), 200, 'part 4: get current usage'),
  },
  {
    id: 'billing.usage-shape',
    tags: ['billing'],
    description: 'GET /billing/usage carries the plan, the period, usage and limits',
    spec: 'D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => void expectShape(await ctx.client.billing.usage(), envelope(BillingUsage), 'D15: the billing usage fields'),
  },
  {
    id: 'billing.sessions',
    tags: ['billing'],
    description:
      'POST /billing/checkout (to a plan the tenant is not on) and /billing/portal answer 201 with a cs_test_/bps_ id and a provider URL; a bad plan is 400',
    spec: 'part 4 (Billing), D13, D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'holds', why: 'opens the checkout and portal pages it made, which a step of the clock past their expiry would end' },
    readsBack: ['createCheckoutSession', 'createPortalSession'],
    run: async (ctx) => {
      // A used tenant may be on any plan: the checkout is for one it is not on.
      const { data: usage } = expectShape(await ctx.client.billing.usage(), envelope(BillingUsage), 'D15: the billing usage names the plan');
      const plan = CheckoutBody.shape.plan.options.find((p) => p !== usage.plan)!;
      const checkout = await ctx.client.billing.checkout({ plan, successUrl: RETURN, cancelUrl: RETURN });
      expectStatus(checkout, 201, 'D15: checkout is created');
      const { data } = expectShape(checkout, envelope(CheckoutSession), 'D13: checkout answers { id: cs_test_…, url }');
      expect(data.id.startsWith('cs_test_') && URL.canParse(data.url), 'D13: a cs_test_ id and the provider page URL', `${data.id} ${data.url}`, checkout);
      expect(
        data.plan === plan && data.status === 'open',
        'D15: checkout answers the plan asked, open',
        `${data.plan} ${data.status}, asked ${plan}`,
        checkout,
      );
      // The provider's page is the checkout's read: it opens and offers the plan asked.
      const page = await ctx.client.request('GET', providerPage(ctx, data.url), { apiKey: null });
      expect(
        page.status === 200 && page.text.includes(`${plan} plan`) && page.text.includes(data.id),
        "D13: the checkout's provider page offers the plan the checkout asked",
        `${page.status}: the page does not offer the ${plan} plan of ${data.id}`,
        page,
      );
      const portal = await ctx.client.billing.portal({ returnUrl: RETURN });
      expectStatus(portal, 201, 'D15: a portal session is created');
      const { data: opened } = expectShape(portal, envelope(PortalSession), 'D13: portal answers { id: bps_…, url }');
      expect(opened.id.startsWith('bps_'), 'D13: a bps_ id', 'wrong id', portal);
      const portalPage = await ctx.client.request('GET', providerPage(ctx, opened.url), { apiKey: null });
      expect(
        portalPage.status === 200 && portalPage.text.includes(RETURN),
        "D13: the portal's provider page opens, leading back to the returnUrl sent",
        `${portalPage.status}: the page does not lead back to ${RETURN}`,
        portalPage,
      );
      // Neither changes the plan: a checkout does once it is paid, a portal once a plan is chosen in it.
      const after = await ctx.client.billing.usage();
      expect(
        after.ok && after.body.data.plan === usage.plan,
        'D13: a checkout not paid and a portal not used leave the plan as it was',
        `plan ${after.ok ? after.body.data.plan : after.status}, was ${usage.plan}`,
        after,
      );
      expectErrorCode(
        await ctx.client.request('POST', '/billing/checkout', { body: { plan: 'platinum', successUrl: RETURN, cancelUrl: RETURN } }),
        400,
        'validation_error',
        'D15: plan is free, pro or enterprise',
      );
    },
  },
  {
    id: 'billing.portal-expiry',
    tags: ['billing', 'clock'],
    description: 'a billing portal link opens until its expiresAt on the emulator clock (a few seconds before, 200) and is 410 once past it',
    spec: 'part 3.3, part 7 (410), D10, D13, D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: "steps the clock to just before and just past a billing portal link's expiresAt (an hour)" },
    run: async (ctx) => {
      const created = await ctx.client.billing.portal({ returnUrl: RETURN });
      const { data } = expectShape(created, envelope(PortalSession), 'D13: portal answers { id: bps_…, url, expiresAt }');
      const page = providerPage(ctx, data.url);
      const expiresAt = Date.parse(data.expiresAt);
      const early = await stepToJustBefore(ctx, expiresAt, await emulatorNow(ctx));
      const before = await ctx.client.request('GET', page, { apiKey: null });
      expect(before.status === 200, 'D13: a portal link opens until its expiresAt (emulator clock)', `${page} answered ${before.status} 5 s before`, before);
      await stepJustPast(ctx, expiresAt, early);
      const after = await ctx.client.request('GET', page, { apiKey: null });
      expect(after.status === 410, 'part 3.3/D13: a portal link past its expiresAt is gone (410)', `${page} answered ${after.status} 1 s after`, after);
      // A person who opens an expired link sees why: the emulator's time beside the real one, as a 410 of the API says in details.
      const minute = (ms: number): string => new Date(ms).toISOString().slice(0, 16);
      const now = await emulatorNow(ctx);
      // The minute the page was made in: the one read just after it, or the one before when a minute turned in between.
      const minutes = [minute(now), minute(now - 60_000)];
      expect(
        after.text.includes('emulator clock') && minutes.some((one) => after.text.includes(one)),
        'D10: an expired link says where the emulator clock is',
        `the 410 page does not name the emulator clock's time (${minutes[0]}…)`,
        after,
      );
    },
  },
];
