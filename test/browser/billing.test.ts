/**
 * The emulated payment provider's pages in a real browser (Debian's chromium, headless): a
 * checkout paid with its Pay button lands on the app's success URL and changes the plan; the
 * billing portal switches plans and links back. Both are in the dashboard's layout, and the
 * checkout's expiry stays on one line. Screenshots under test-artifacts/billing/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PLAN_LIMITS } from '../../src/services/tenant.js';
import { artifactPath, browserAvailability, horizontalOverflow, launchBrowser, lineBoxes, POLL, type TestBrowser } from '../../src/test-support/browser.js';
import { ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../../src/test-support/receiver.js';

const availability = browserAvailability();
if (!availability.available) console.warn(`Skipping the billing browser tests: ${availability.reason}`);

describe.skipIf(!availability.available)('the payment provider in chromium', () => {
  let svc: TestEmulator;
  /** Stands in for the customer's application that the provider sends the payer back to. */
  let app: TestReceiver;
  let browser: TestBrowser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: artifactPath('billing', `${name}.png`), fullPage: true });
  /** The dashboard's shell (src/ui/layout.tsx): its header with the brand, a narrow main column, its footer. */
  const expectDashboardLayout = async (section: string) => {
    expect(await page.locator('header.top .brand').innerText()).toMatch(/^svc\s*emulator$/);
    expect(await page.locator('header.top .top-section').innerText()).toBe(section);
    expect(await page.locator('main.narrow').count()).toBe(1);
    expect(await page.locator('footer.foot').isVisible()).toBe(true);
    expect(await page.title()).toMatch(/ · svc emulator$/);
  };

  beforeAll(async () => {
    svc = await startTestEmulator();
    app = await startReceiver(() => 200);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    // A missing element fails in seconds, naming its locator, rather than at the test's timeout.
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await svc?.close();
  });

  it('pays a checkout with the Pay button: back at the app, on the new plan, with the event emitted', async () => {
    const created = await svc.request('POST', '/billing/checkout', {
      body: { plan: 'enterprise', successUrl: `${app.url}/billing/paid?session={CHECKOUT_SESSION_ID}`, cancelUrl: `${app.url}/billing/cancel` },
    });
    expect(created.status).toBe(201);
    const { id, url } = created.body.data;
    await page.goto(url);
    expect(await page.locator('h1').innerText()).toContain('enterprise plan');
    expect(await page.getByTestId('price').innerText()).toContain('$499.00');
    await expectDashboardLayout('Payment provider · test mode');
    const checkout = svc.emulator.rt.store.get('checkoutSessions', id)!;
    const expires = page.getByTestId('expires').locator(`time[datetime="${checkout.expiresAt}"]`);
    expect(await expires.innerText()).toBe(checkout.expiresAt.replace('T', ' ').slice(0, 19));
    expect(await lineBoxes(expires)).toBe(1);
    await shot('01-checkout');
    // On a phone's width too, the date neither wraps nor sticks out of the card.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await lineBoxes(expires)).toBe(1);
    const card = (await page.locator('main .card').boundingBox())!;
    const date = (await expires.boundingBox())!;
    expect(date.x + date.width).toBeLessThanOrEqual(card.x + card.width);
    expect(await horizontalOverflow(page.locator('html'))).toBe(0);
    await shot('01-checkout-narrow');
    await page.setViewportSize({ width: 1360, height: 900 });

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${app.url}/billing/paid?session=${id}`);
    const tenant = await svc.request('GET', '/tenant');
    expect(tenant.body.data.plan).toBe('enterprise');
    expect(tenant.body.data.limits).toEqual(PLAN_LIMITS.enterprise);
    const usage = await svc.request('GET', '/billing/usage');
    expect(usage.body.data.limits).toEqual(PLAN_LIMITS.enterprise);
    const events = [...svc.emulator.rt.store.all('events')].filter((e) => e.type === 'billing.subscription.updated' && e.tenantId === ACME_TENANT_ID);
    expect(events.map((e) => e.data['checkoutId'])).toEqual([id]);

    await page.goto(url);
    expect(await page.locator('h1').innerText()).toBe('Checkout closed');
    await expectDashboardLayout('Payment provider · test mode');
  });

  it('switches plans in the billing portal and returns to the app', async () => {
    const created = await svc.request('POST', '/billing/portal', { body: { returnUrl: `${app.url}/settings` } });
    await page.goto(created.body.data.url);
    expect(await page.getByTestId('plan').innerText()).toContain('enterprise');
    await expectDashboardLayout('Payment provider · test mode');
    await page.getByRole('button', { name: /Switch to pro/ }).click();
    await expect.poll(() => page.getByTestId('plan').innerText(), POLL).toContain('pro');
    await shot('02-portal');
    expect((await svc.request('GET', '/tenant')).body.data.plan).toBe('pro');
    await page.getByRole('link', { name: 'Return to the application' }).click();
    await page.waitForURL(`${app.url}/settings`);
  });
});
