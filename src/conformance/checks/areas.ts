/**
 * Analytics, billing, custom domains, Telegram and passkeys (spec part 4, 8; DESIGN D13, D15):
 * the parts a suite can drive without a browser, a bot token or a DNS zone of its own.
 */
import { Analytics, ANALYTICS_PERIODS } from '../../schemas/analytics.js';
import { BillingUsage, CheckoutBody, CheckoutSession, PortalSession } from '../../schemas/billing.js';
import { envelope } from '../../schemas/common.js';
import { CustomDomain, DeletedDomain } from '../../schemas/custom-domains.js';
import { PasskeyOptions } from '../../schemas/passkeys.js';
import { TelegramWidgetConfig } from '../../schemas/telegram.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { emulatorNow } from './sessions.js';
import { removal } from './support.js';

const RETURN = 'http://127.0.0.1:9/conformance';

export const analyticsChecks: Check[] = [
  ...ANALYTICS_PERIODS.map((period): Check => ({
    id: `analytics.period-${period}`,
    tags: ['analytics'],
    description: `GET /analytics?period=${period} answers 200 with the success envelope`,
    spec: 'part 4 (Analytics: period one of 7d, 30d, 90d), part 8',
    profile: 'spec',
    creates: false,
    run: async (ctx) =>
      void expectSuccess(await ctx.client.request('GET', '/analytics', { query: { period } }), 200, `part 8: ${period} is an analytics period`),
  })),
  ...['1y', '7', 'week'].map((period): Check => ({
    id: `analytics.bad-period-${period}`,
    tags: ['analytics', 'validation'],
    description: `GET /analytics?period=${period} is 400 with the error envelope`,
    spec: 'part 4 (period one of 7d, 30d, 90d), part 7 (400)',
    profile: 'spec',
    creates: false,
    run: async (ctx) =>
      void expectError(await ctx.client.request('GET', '/analytics', { query: { period } }), 400, 'part 4/8: the analytics periods are 7d, 30d and 90d only'),
  })),
  {
    id: 'analytics.shape',
    tags: ['analytics'],
    description: 'GET /analytics answers period, from, to, totals and a daily series',
    spec: 'D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.analytics.get('30d');
      const { data } = expectShape(result, envelope(Analytics), 'D15: the analytics fields');
      expect(
        data.period === '30d' && Date.parse(data.from) < Date.parse(data.to),
        'D15: the period asked, from before to',
        `${data.period} ${data.from}…${data.to}`,
        result,
      );
    },
  },
];

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
    run: async (ctx) => {
      // A used tenant may be on any plan: the checkout is for one it is not on.
      const { data: usage } = expectShape(await ctx.client.billing.usage(), envelope(BillingUsage), 'D15: the billing usage names the plan');
      const plan = CheckoutBody.shape.plan.options.find((p) => p !== usage.plan)!;
      const checkout = await ctx.client.billing.checkout({ plan, successUrl: RETURN, cancelUrl: RETURN });
      expectStatus(checkout, 201, 'D15: checkout is created');
      const { data } = expectShape(checkout, envelope(CheckoutSession), 'D13: checkout answers { id: cs_test_…, url }');
      expect(data.id.startsWith('cs_test_') && URL.canParse(data.url), 'D13: a cs_test_ id and the provider page URL', `${data.id} ${data.url}`, checkout);
      const portal = await ctx.client.billing.portal({ returnUrl: RETURN });
      expectStatus(portal, 201, 'D15: a portal session is created');
      expect(
        expectShape(portal, envelope(PortalSession), 'D13: portal answers { id: bps_…, url }').data.id.startsWith('bps_'),
        'D13: a bps_ id',
        'wrong id',
        portal,
      );
      expectErrorCode(
        await ctx.client.request('POST', '/billing/checkout', { body: { plan: 'platinum', successUrl: RETURN, cancelUrl: RETURN } }),
        400,
        'validation_error',
        'D15: plan is free, pro or enterprise',
      );
    },
  },
];

export const domainChecks: Check[] = [
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
      expect(
        data.status === 'pending' && data.verification.name === `_svc-verify.${domain}` && data.verification.value.startsWith('svc-verify='),
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

export const signInChecks: Check[] = [
  {
    id: 'telegram.widget-config',
    tags: ['telegram'],
    description: 'GET /auth/telegram/widget-config answers the bot username and whether a token is set, never the token',
    spec: 'part 4 (Telegram), D3',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.telegram.widgetConfig();
      expectShape(result, envelope(TelegramWidgetConfig), 'D15: the widget configuration');
      expect(!/"botToken"/.test(result.text), 'D3: the bot token is write-only', 'the answer holds botToken', result);
    },
  },
  {
    id: 'telegram.bad-hash',
    tags: ['telegram'],
    description: 'POST /auth/telegram/verify with data whose hash is wrong is 401 invalid_telegram_auth',
    spec: 'part 4 (Telegram verify), D6',
    profile: 'emulator',
    creates: false,
    uses: { clock: 'holds', why: 'dates its data by the emulator clock, just before the target judges it' },
    run: async (ctx) => {
      const { data: config } = expectShape(await ctx.client.telegram.widgetConfig(), envelope(TelegramWidgetConfig), 'D15: the widget configuration');
      if (!config.configured)
        throw new CheckSkip('the tenant has no Telegram bot token, so no Telegram data can be verified (the token is write-only: the suite does not set one)');
      // auth_date from the emulator clock, so only the hash is wrong however far the clock is from real time.
      const body = { id: 1, first_name: 'Conformance', auth_date: Math.floor((await emulatorNow(ctx)) / 1000), hash: 'ab'.repeat(32) };
      expectErrorCode(await ctx.client.telegram.verify(body), 401, 'invalid_telegram_auth', 'part 4: Telegram data is verified');
    },
  },
  {
    id: 'passkeys.options',
    tags: ['passkeys'],
    description: 'register-options and login-options answer a challengeId and WebAuthn options with a fresh challenge',
    spec: 'part 4 (Passkey/WebAuthn), part 5.5, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const register = await ctx.client.passkeys.registerOptions({ email: `conf-${ctx.runId}-passkey@conformance.example` });
      const a = expectShape(register, envelope(PasskeyOptions), 'D15: register-options answers challengeId and options').data;
      expect(
        typeof a.options['challenge'] === 'string' && typeof a.options['rp'] === 'object',
        'D15: creation options carry challenge and rp',
        JSON.stringify(a.options).slice(0, 200),
        register,
      );
      const login = await ctx.client.passkeys.loginOptions();
      const b = expectShape(login, envelope(PasskeyOptions), 'D15: login-options answers challengeId and options').data;
      expect(
        b.options['challenge'] !== a.options['challenge'] && b.challengeId !== a.challengeId,
        'part 5.5: every challenge is new',
        'the same challenge twice',
        login,
      );
    },
  },
  {
    id: 'passkeys.bad-response',
    tags: ['passkeys', 'validation'],
    description: 'register-verify and login-verify with a body that is no credential are 400',
    spec: 'part 4, part 7 (400), D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const path of ['/auth/passkey/register-verify', '/auth/passkey/login-verify']) {
        expectErrorCode(
          await ctx.client.request('POST', path, { body: { challengeId: 'chl_nope', response: {} } }),
          400,
          'validation_error',
          `D6: ${path} checks its body`,
        );
      }
    },
  },
];
