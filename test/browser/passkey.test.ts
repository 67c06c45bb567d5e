/**
 * The passkey demo page in a real browser: Debian's chromium, driven by playwright-core, with a
 * CDP virtual authenticator, registers a passkey and logs in with it against a running
 * emulator; and the page reads well: no empty log, the checkbox in line with its words, a long
 * partyId inside its box, and a failure a person can mend shown as an alert that names the fix.
 * Without chromium the suite is skipped with a message, unless REQUIRE_BROWSER=1, where a
 * missing browser is a failure. Screenshots under test-artifacts/passkey/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addVirtualAuthenticator,
  artifactPath,
  browserAvailability,
  horizontalOverflow,
  labelOffset,
  launchBrowser,
  POLL,
  textColour,
  type TestBrowser,
} from '../../src/test-support/browser.js';
import { ACME_KEY, ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';

const availability = browserAvailability();
if (!availability.available) console.warn(`Skipping the passkey browser tests: ${availability.reason}`);

/** Origins that leave out the page's own: a front-end's dev server only (the seeded origin follows svc's port, D3). */
const OTHER_ORIGINS = ['http://localhost:5173'];

describe.skipIf(!availability.available)('passkey demo in a browser', () => {
  let svc: TestEmulator;
  let browser: TestBrowser;
  let page: Page;
  /** The page must be served from an allowed origin whose host is the RP ID (localhost). */
  let pageOrigin: string;
  let demo: string;
  const shot = (name: string) => page.screenshot({ path: artifactPath('passkey', `${name}.png`), fullPage: true });
  const setOrigins = async (origins: string[]) => {
    const patched = await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins } } } });
    expect(patched.status).toBe(200);
  };

  beforeAll(async () => {
    svc = await startTestEmulator();
    pageOrigin = `http://localhost:${svc.emulator.server.port}`;
    demo = `${pageOrigin}/_emulator/ui/passkey?key=${ACME_KEY}`;
    browser = await launchBrowser();
    page = await browser.context.newPage();
    // A missing element fails in seconds, naming its locator, rather than at the test's timeout.
    page.setDefaultTimeout(10_000);
    await addVirtualAuthenticator(browser.context, page);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** Waits for the page to settle on `state`; an error state fails with the page's message. */
  async function settle(state: string): Promise<string> {
    const result = page.locator(`#result[data-state="${state}"], #result[data-state="error"]`);
    await result.waitFor({ state: 'attached', timeout: 15_000 });
    const status = await page.locator('#status').textContent();
    const problem = (await page.locator('#problem').isVisible()) ? await page.locator('#problem').innerText() : '';
    expect(await result.getAttribute('data-state'), `${status ?? ''} ${problem}`).toBe(state);
    return status ?? '';
  }

  it('shows "Nothing yet." with no empty log under it, and the checkbox in line with its words', async () => {
    await page.goto(demo);
    expect(await page.locator('#status').innerText()).toBe('Nothing yet.');
    for (const block of await page.locator('pre, dl').all()) {
      if (await block.isVisible()) expect(await block.innerText(), 'a visible log or list').not.toBe('');
    }
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await labelOffset(page.locator('#use-email'))).toBeLessThanOrEqual(3);
    await shot('01-idle');
  });

  it('names the fix when the page origin is not allowed: the PATCH /v1/tenant call that keeps the origins already there', async () => {
    // Seeded with the origin of the port svc serves on, so the demo works as it comes; take the page's origin out.
    expect((await svc.request('GET', '/tenant')).body.data.settings.webauthn.origins).toEqual([pageOrigin]);
    await setOrigins(OTHER_ORIGINS);
    await page.goto(demo);
    await page.fill('#email', 'wrong.origin@example.com');
    await page.click('#register');
    await settle('error');
    const alert = page.getByRole('alert');
    await expect.poll(() => page.locator('#fix-command').innerText(), POLL).toContain('PATCH');
    expect(await alert.isVisible()).toBe(true);
    const words = await alert.innerText();
    expect(words).toContain('webauthn_origin_mismatch');
    expect(words).toContain(`this page's origin ${pageOrigin}`);
    expect(words).toContain('PATCH /v1/tenant');
    expect(words).toContain('replaces the whole list');
    const command = await page.locator('#fix-command').innerText();
    expect(command).toMatch(new RegExp(`^curl -X PATCH ${pageOrigin}/v1/tenant`));
    expect(command).toContain(`-H 'x-api-key: ${ACME_KEY}'`);
    const body = /-d '(.*)'$/.exec(command)?.[1];
    expect(JSON.parse(body ?? 'null')).toEqual({ settings: { webauthn: { origins: [...OTHER_ORIGINS, pageOrigin] } } });
    // The text is red on pale red, as the dashboard's error flash, not grey.
    expect(await textColour(alert)).not.toBe(await textColour(page.locator('#status')));
    await shot('02-origin-mismatch');

    // The command's body, sent as is, mends it: the same click now registers.
    const applied = await svc.request('PATCH', '/tenant', { body: JSON.parse(body!) });
    expect(applied.body.data.settings.webauthn.origins).toEqual([...OTHER_ORIGINS, pageOrigin]);
    await page.click('#register');
    expect(await settle('registered')).toContain('wrong.origin@example.com');
    expect(await page.getByRole('alert').isVisible()).toBe(false);
  }, 60_000);

  it('registers a passkey with the virtual authenticator, shows a long partyId inside its box, then logs in with it', async () => {
    await setOrigins([...OTHER_ORIGINS, pageOrigin]);
    // A long email makes the longest party hint Canton allows (64 characters).
    const email = `${'a-rather-long-mailbox-name-'.repeat(2)}for-wrapping@example.com`;
    await page.goto(demo);
    await page.fill('#email', email);
    await page.fill('#name', 'Browser User');
    await page.click('#register');
    expect(await settle('registered')).toContain(email);

    const users = svc.emulator.rt.store.ofTenant('users', ACME_TENANT_ID).filter((user) => user.email === email);
    expect(users).toHaveLength(1);
    const user = users[0]!;
    expect(user.partyId.length).toBeGreaterThan(120);
    const partyId = page.locator('#party-id');
    expect(await partyId.innerText()).toBe(user.partyId);
    expect(await horizontalOverflow(partyId)).toBe(0);
    const card = await page.locator('#result').boundingBox();
    const box = await partyId.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width);
    await page.locator('#session summary').click();
    expect(await page.locator('#result-json').innerText()).toContain(user.partyId);
    expect(await horizontalOverflow(page.locator('#result-json'))).toBe(0);
    await shot('03-registered');

    const passkeys = svc.emulator.rt.store.ofTenant('passkeys', ACME_TENANT_ID).filter((passkey) => passkey.userId === user.id);
    expect(passkeys).toHaveLength(1);
    await page.check('#use-email');
    await page.click('#login');
    expect(await settle('signed-in')).toContain(email);
    expect(await page.locator('#user-id').innerText()).toBe(user.id);
    const sessions = svc.emulator.rt.store.ofTenant('sessions', ACME_TENANT_ID).filter((session) => session.userId === user.id);
    expect(sessions.map((session) => session.method)).toEqual(['passkey', 'passkey']);
    expect(svc.emulator.rt.store.get('passkeys', passkeys[0]!.id)!.counter).toBeGreaterThan(0);

    const token = await page.inputValue('#token');
    const me = await svc.request('GET', '/mfa/status', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  }, 60_000);

  it('shows the API error as an alert when logging in from an origin no longer allowed', async () => {
    await setOrigins(OTHER_ORIGINS);
    try {
      await page.goto(demo);
      await page.fill('#email', 'wrong.origin@example.com');
      await page.check('#use-email');
      await page.click('#login');
      expect(await settle('error')).toContain('webauthn_origin_mismatch');
      await expect.poll(() => page.locator('#fix-command').innerText(), POLL).toContain(JSON.stringify([...OTHER_ORIGINS, pageOrigin]));
      expect(await page.getByRole('alert').isVisible()).toBe(true);
    } finally {
      await setOrigins([...OTHER_ORIGINS, pageOrigin]);
    }
  }, 60_000);

  it('on a host that is not the RP ID, names the address to open instead', async () => {
    const ipOrigin = `http://127.0.0.1:${svc.emulator.server.port}`;
    await page.goto(`${ipOrigin}/_emulator/ui/passkey?key=${ACME_KEY}`);
    await page.fill('#email', 'ip.host@example.com');
    await page.click('#register');
    await settle('error');
    await expect.poll(() => page.locator('#fix-link').getAttribute('href'), POLL).toBe(demo);
    const words = await page.getByRole('alert').innerText();
    expect(words).toContain("this page's host (127.0.0.1) must be the tenant's RP ID (localhost)");
    await shot('04-rp-id');
  }, 60_000);
});
