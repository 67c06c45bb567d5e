/**
 * The dashboard in a real browser (Debian's chromium, headless): a dead delivery is made by
 * advancing the clock from the page, retried with its Retry button, and seen delivered to a
 * real receiver. Screenshots of every page are kept under test-artifacts/dashboard/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { artifactPath, browserAvailability, launchBrowser, POLL, type TestBrowser } from '../../src/test-support/browser.js';
import { ACME_KEY, ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../../src/test-support/receiver.js';

const availability = browserAvailability();
if (!availability.available) console.warn(`Skipping the dashboard browser tests: ${availability.reason}`);

const START = '2026-11-21T10:00:00.000Z';

describe.skipIf(!availability.available)('the dashboard in chromium', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let browser: TestBrowser;
  let page: Page;
  let ui: string;

  const shot = (name: string) => page.screenshot({ path: artifactPath('dashboard', `${name}.png`), fullPage: true });
  const flash = () => page.locator('.flash').innerText();

  beforeAll(async () => {
    svc = await startTestEmulator({ clock: { startTime: new Date(START) } });
    receiver = await startReceiver(() => 500);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    ui = `${svc.origin}/_emulator/ui`;
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await svc?.close();
  });

  it('shows the tenants, and their API keys only masked', async () => {
    await page.goto(ui);
    await expect.poll(() => page.locator('h1').innerText(), POLL).toBe('Overview');
    expect(await page.locator('#tenants').innerText()).toContain('Acme Wallet');
    await shot('01-overview');
    await page.getByRole('link', { name: 'Acme Wallet' }).click();
    await page.waitForURL(`${ui}/tenants/${ACME_TENANT_ID}`);
    const body = await page.content();
    expect(body).toContain(`${ACME_KEY.slice(0, 12)}…${ACME_KEY.slice(-4)}`);
    expect(body).not.toContain(ACME_KEY);
    await shot('02-tenant');
  });

  it('searches users and pages through them', async () => {
    await page.goto(`${ui}/tenants/${ACME_TENANT_ID}/users`);
    const total = Number((await page.locator('.card h2').first().innerText()).split(' ')[0]);
    expect(total).toBeGreaterThan(25);
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => page.locator('.pager span').innerText(), POLL).toContain('page 2 of');
    await page.getByRole('searchbox', { name: 'Search' }).fill('ACME');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/search=ACME/);
    const emails = await page.locator('tbody tr td:first-child').allInnerTexts();
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) expect(email.toLowerCase()).toContain('acme');
    await shot('03-users-search');
  });

  it('advances the clock from the page until a delivery is dead, then retries it to a real receiver', async () => {
    const hook = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['user.created'], description: 'browser test' } });
    await svc.request('POST', '/users', { body: { email: 'dashboard-dlq@example.com', name: 'DLQ Person' } });
    await receiver.waitFor(1);

    await page.goto(ui);
    await expect.poll(() => page.locator('#emulator-now').getAttribute('datetime'), POLL).toMatch(/^2026-11-21T10:0/);
    await page.getByRole('button', { name: '+1d' }).click();
    await page.waitForURL(/flash=/);
    expect(await flash()).toContain('Advanced the clock by 1d: 4 delivery attempts fired');
    await expect.poll(() => page.locator('#emulator-now').getAttribute('datetime'), POLL).toMatch(/^2026-11-22T10:0/);
    await page.getByRole('button', { name: '+1d' }).click();
    await page.waitForURL(/flash=.*1\+delivery\+attempt\+fired/);
    await expect.poll(() => page.locator('#emulator-now').getAttribute('datetime'), POLL).toMatch(/^2026-11-23T10:0/);
    expect(receiver.received).toHaveLength(6);

    await page.getByRole('link', { name: 'DLQ', exact: true }).click();
    const deliveries = await svc.request('GET', `/webhooks/${hook.body.data.id}/deliveries?status=dead`);
    const deadId = deliveries.body.data[0].id as string;
    const row = page.locator(`tr[data-delivery="${deadId}"]`);
    await expect.poll(() => row.innerText(), POLL).toContain('HTTP 500');
    await shot('04-dlq');

    receiver.respond = () => 200;
    await row.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(/flash=/);
    expect(await flash()).toContain(`Delivery ${deadId} delivered (HTTP 200)`);
    await expect.poll(() => page.locator(`tr[data-delivery="${deadId}"]`).count(), POLL).toBe(0);
    await shot('05-dlq-after-retry');

    const [first] = receiver.received;
    const last = receiver.received[6]!;
    expect(receiver.received).toHaveLength(7);
    expect(last.headers['x-service-event-id']).toBe(first!.headers['x-service-event-id']);
    const after = await svc.request('GET', `/webhooks/${hook.body.data.id}/deliveries`);
    expect(after.body.data[0]).toMatchObject({ id: deadId, status: 'succeeded' });
    expect(after.body.data[0].attempts).toHaveLength(7);

    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await shot('06-webhooks');
    await page.goto(`${ui}/webhooks/${hook.body.data.id}`);
    await shot('06-webhook');
    await page.getByRole('link', { name: deadId }).click();
    await expect.poll(() => page.locator('tr[data-attempt]').count(), POLL).toBe(7);
    await expect.poll(() => page.locator('tr[data-attempt="1"]').innerText(), POLL).toContain('500');
    await expect.poll(() => page.locator('tr[data-attempt="7"]').innerText(), POLL).toContain('200');
    await shot('07-delivery');
  });

  it('retries the whole DLQ with Retry all', async () => {
    receiver.respond = () => 503;
    await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['mfa.enabled'] } });
    await svc.request('POST', '/_emulator/trigger', { body: { type: 'mfa.enabled' } });
    await svc.request('POST', '/_emulator/trigger', { body: { type: 'mfa.enabled' } });
    await page.goto(ui);
    await page.getByRole('button', { name: '+1d' }).click();
    await page.waitForURL(/flash=/);
    await page.getByRole('button', { name: '+1d' }).click();
    await page.waitForURL(/flash=.*2\+delivery\+attempts/);
    await page.goto(`${ui}/dlq`);
    await expect.poll(() => page.locator('tr[data-delivery]').count(), POLL).toBe(2);
    receiver.respond = () => 200;
    await page.getByRole('button', { name: 'Retry all' }).click();
    await page.waitForURL(/flash=/);
    expect(await flash()).toContain('Retried 2 deliveries: 2 delivered, 0 failed again.');
    await expect.poll(() => page.locator('.empty').innerText(), POLL).toBe('The DLQ is empty.');
  });

  it('shows the event log filtered by type', async () => {
    await page.goto(`${ui}/events`);
    await page.getByRole('combobox', { name: 'Event type' }).selectOption('user.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=user.created/);
    const types = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(types).toEqual(['user.created']);
    await page.locator('tbody tr details summary').first().click();
    await expect.poll(() => page.locator('tbody tr details pre').first().innerText(), POLL).toContain('dashboard-dlq@example.com');
    await shot('08-events');
  });

  it('adds a fault from the Control page that the API then answers, and clears it', async () => {
    await page.goto(`${ui}/control`);
    const form = page.locator('form[action$="/faults"]');
    await form.getByRole('combobox', { name: 'Method' }).selectOption('GET');
    await form.getByRole('textbox', { name: 'Path' }).fill('/apps');
    await form.getByRole('spinbutton', { name: 'Status' }).fill('503');
    await form.getByRole('spinbutton', { name: 'Count' }).fill('2');
    await form.getByRole('button', { name: 'Add fault' }).click();
    await page.waitForURL(/flash=/);
    expect(await flash()).toContain('the next 2 requests to GET /apps will answer 503');
    expect((await svc.request('GET', '/apps')).status).toBe(503);
    await page.reload();
    await expect.poll(() => page.locator('td', { hasText: '1 of 2' }).count(), POLL).toBe(1);
    await shot('09-control');
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.waitForURL(/flash=/);
    expect(await flash()).toContain('Cleared 1 fault.');
    expect((await svc.request('GET', '/apps')).status).toBe(200);
  });

  it('works without JavaScript: reading pages and pressing the clock buttons', async () => {
    const plain = await launchBrowser({ javaScriptEnabled: false });
    try {
      const noJs = await plain.context.newPage();
      await noJs.goto(`${ui}/control`);
      const before = await noJs.locator('#emulator-now').getAttribute('datetime');
      await noJs.getByRole('button', { name: '+1h' }).click();
      await noJs.waitForURL(/flash=/);
      await expect.poll(() => noJs.locator('.flash').innerText(), POLL).toContain('Advanced the clock by 1h');
      const after = await noJs.locator('#emulator-now').getAttribute('datetime');
      expect(Date.parse(after!) - Date.parse(before!)).toBeGreaterThanOrEqual(3_600_000);
      expect(new URL(noJs.url()).pathname).toBe('/_emulator/ui/control');
    } finally {
      await plain.close();
    }
  });
});
