import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../services/tenant.js';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

/** The action of the form whose submit button reads `label` on an HTML page. */
function formAction(html: string, label: RegExp): string {
  for (const match of html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)) {
    if (label.test(match[2]!)) return match[1]!;
  }
  throw new Error(`no form with a button ${label} in:\n${html}`);
}

describe('billing through the emulated payment provider', () => {
  let svc: InProcessEmulator;
  // The provider's pages as a browser sees them: no API key, and a redirect is answered, not followed.
  const browse = (url: string) => svc.request('GET', url, { key: null });
  const submit = (action: string, fields: Record<string, string> = {}) =>
    svc.request('POST', action, {
      key: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams(fields).toString(),
    });
  const events = (type: string) => [...svc.emulator.rt.store.all('events')].filter((e) => e.type === type && e.tenantId === ACME_TENANT_ID);

  beforeAll(async () => {
    svc = await startInProcess({ clock: { startTime: new Date('2026-12-15T12:00:00.000Z') } });
  });
  afterAll(() => svc.close());

  it('drives a checkout to completion over HTTP: the plan, its limits and its rate change, and the event is emitted', async () => {
    const created = await svc.request('POST', '/billing/checkout', {
      body: { plan: 'enterprise', successUrl: 'https://app.example.com/paid?session={CHECKOUT_SESSION_ID}', cancelUrl: 'https://app.example.com/cancel' },
    });
    expect(created.status).toBe(201);
    const { id, url } = created.body.data;
    expect(id).toMatch(/^cs_test_[0-9A-Za-z]{20}$/);
    expect(url).toBe(`${svc.origin}/_provider/checkout/${id}`);

    const page = await browse(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = page.text;
    expect(html).toContain('enterprise plan');
    expect(html).toContain('$499.00');
    expect(html).toContain('2,000'); // the enterprise rate

    const paid = await submit(formAction(html, />Pay</));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`https://app.example.com/paid?session=${id}`);

    const tenant = await svc.request('GET', '/tenant');
    expect(tenant.body.data.plan).toBe('enterprise');
    expect(tenant.body.data.limits).toEqual(PLAN_LIMITS.enterprise);
    expect(tenant.headers.get('ratelimit-limit')).toBe('4000');
    const usage = await svc.request('GET', '/billing/usage');
    expect(usage.body.data).toMatchObject({ plan: 'enterprise', limits: PLAN_LIMITS.enterprise, price: { amount: 49_900, currency: 'usd' } });
    expect(events('billing.subscription.updated').at(-1)?.data).toMatchObject({ plan: 'enterprise', previousPlan: 'pro', checkoutId: id });

    // Paid once: paying again, or opening the page, is 410 and changes nothing.
    expect((await submit(formAction(html, />Pay</))).status).toBe(410);
    const closed = await browse(url);
    expect(closed.status).toBe(410);
    expect(closed.text).toContain('already been paid');
    expect(events('billing.subscription.updated')).toHaveLength(1);
  });

  it('cancels a checkout back to cancelUrl without changing the plan', async () => {
    const before = (await svc.request('GET', '/tenant')).body.data.plan;
    const created = await svc.request('POST', '/billing/checkout', {
      body: { plan: 'free', successUrl: 'https://app.example.com/ok', cancelUrl: 'https://app.example.com/cancelled' },
    });
    const html = (await browse(created.body.data.url)).text;
    const canceled = await submit(formAction(html, />Cancel</));
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get('location')).toBe('https://app.example.com/cancelled');
    expect((await svc.request('GET', '/tenant')).body.data.plan).toBe(before);
    expect((await submit(formAction(html, />Pay</))).status).toBe(410);
  });

  it('lets a checkout expire after 24 h of emulator time and answers unknown ones 404', async () => {
    const created = await svc.request('POST', '/billing/checkout', {
      body: { plan: 'pro', successUrl: 'https://app.example.com/ok', cancelUrl: 'https://app.example.com/no' },
    });
    expect((await browse(created.body.data.url)).status).toBe(200);
    svc.emulator.rt.clock.advance(24 * 3_600_000);
    const expired = await browse(created.body.data.url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    expect((await browse('/_provider/checkout/cs_test_doesnotexist')).status).toBe(404);
    expect((await submit('/_provider/checkout/cs_test_doesnotexist/pay')).status).toBe(404);
  });

  it.each([
    ['an unknown plan', { plan: 'gold', successUrl: 'https://a.test/ok', cancelUrl: 'https://a.test/no' }, 400, 'plan'],
    ['a non-http successUrl', { plan: 'free', successUrl: 'ftp://a.test/ok', cancelUrl: 'https://a.test/no' }, 400, 'successUrl'],
    ['a relative cancelUrl', { plan: 'free', successUrl: 'https://a.test/ok', cancelUrl: '/no' }, 400, 'cancelUrl'],
    ['the current plan', { plan: 'pro', successUrl: 'https://a.test/ok', cancelUrl: 'https://a.test/no' }, 409, 'plan'],
  ])('refuses a checkout for %s', async (_, body, status, path) => {
    const res = await svc.request('POST', '/billing/checkout', { key: GLOBEX_KEY, body });
    expect(res.status).toBe(status);
    expect(res.body.details[0].path).toBe(path);
  });

  it('opens a billing portal that shows usage, switches plans and links back', async () => {
    const created = await svc.request('POST', '/billing/portal', { key: GLOBEX_KEY, body: { returnUrl: 'https://globex.test/settings' } });
    expect(created.status).toBe(201);
    expect(created.body.data.id).toMatch(/^bps_/);
    const page = await browse(created.body.data.url);
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain('href="https://globex.test/settings"');
    expect(html).toMatch(/data-testid="plan">pro/);

    const switched = await submit(formAction(html, /Switch to free/), { plan: 'free' });
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe(`/_provider/portal/${created.body.data.id}`);
    expect((await svc.request('GET', '/tenant', { key: GLOBEX_KEY })).body.data.plan).toBe('free');
    expect((await submit(`/_provider/portal/${created.body.data.id}/plan`, { plan: 'platinum' })).status).toBe(400);
    svc.emulator.rt.clock.advance(3_600_000);
    expect((await browse(created.body.data.url)).status).toBe(410);
  });
});

describe('GET /billing/usage', () => {
  it('answers this month’s API calls, active users, wallets and deliveries against the plan', async () => {
    const svc = await startInProcess({ clock: { startTime: new Date('2026-12-31T23:00:00.000Z') } });
    try {
      await svc.request('GET', '/apps');
      await svc.request('POST', '/guests', { body: {} });
      await svc.request('POST', '/guests', { body: {} });
      const december = await svc.request('GET', '/billing/usage');
      expect(december.body.data).toEqual({
        plan: 'pro',
        price: { amount: 4_900, currency: 'usd', interval: 'month' },
        period: { from: '2026-12-01T00:00:00.000Z', to: december.body.data.period.to },
        // The two guests signed in here, and the fixture's guest, whose session opens at the start.
        usage: { apiCalls: 4, monthlyActiveUsers: 3, wallets: 0, deliveries: 0 },
        limits: PLAN_LIMITS.pro,
      });
      svc.emulator.rt.clock.advance(2 * 3_600_000);
      const january = await svc.request('GET', '/billing/usage');
      expect(january.body.data.period.from).toBe('2027-01-01T00:00:00.000Z');
      expect(january.body.data.usage).toEqual({ apiCalls: 1, monthlyActiveUsers: 0, wallets: 0, deliveries: 0 });
    } finally {
      await svc.close();
    }
  });
});
