/**
 * The passkey demo page in a real browser: Debian's chromium, driven by playwright-core, with a
 * CDP virtual authenticator (WebAuthn.addVirtualAuthenticator), registers a passkey and logs in
 * with it against a running emulator. Without chromium the suite is skipped with a message,
 * unless REQUIRE_BROWSER=1, where a missing browser is a failure.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';

/** CHROMIUM_PATH, when set, is the only place looked at. */
const CHROMIUM_CANDIDATES = process.env['CHROMIUM_PATH'] ? [process.env['CHROMIUM_PATH']] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const executablePath = CHROMIUM_CANDIDATES.find((path) => existsSync(path));
const required = process.env['REQUIRE_BROWSER'] === '1';

if (!executablePath) {
  const message = `no chromium found (looked at ${CHROMIUM_CANDIDATES.join(', ')}); install it with apt-get install -y chromium`;
  if (required) {
    describe('passkey demo in a browser', () => {
      it('needs chromium because REQUIRE_BROWSER=1', () => {
        throw new Error(message);
      });
    });
  } else {
    console.warn(`[browser tests skipped] ${message}`);
  }
}

describe.runIf(executablePath !== undefined)('passkey demo in a browser', () => {
  let svc: TestEmulator;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let pageOrigin: string;

  beforeAll(async () => {
    svc = await startTestEmulator();
    // The page must be served from an allowed origin whose host is the RP ID (localhost).
    pageOrigin = `http://localhost:${svc.emulator.server.port}`;
    const patched = await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins: [pageOrigin] } } } });
    expect(patched.status).toBe(200);
    userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: executablePath!,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await svc?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  /** Waits for the page to settle on `state`; an error state fails with the page's message. */
  async function settle(state: string): Promise<string> {
    const result = page.locator(`#result[data-state="${state}"], #result[data-state="error"]`);
    await result.waitFor({ state: 'attached', timeout: 15_000 });
    const status = await page.locator('#status').textContent();
    expect(await result.getAttribute('data-state'), status ?? '').toBe(state);
    return status ?? '';
  }

  it('registers a passkey with the virtual authenticator, then logs in with it', async () => {
    await page.goto(`${pageOrigin}/_emulator/ui/passkey?key=${ACME_KEY}`);
    expect(await page.locator('#origin').textContent()).toBe(pageOrigin);
    await page.fill('#email', 'browser.user@example.com');
    await page.fill('#name', 'Browser User');
    await page.click('#register');
    expect(await settle('registered')).toContain('browser.user@example.com');

    const users = svc.emulator.rt.store.ofTenant('users', ACME_TENANT_ID).filter((user) => user.email === 'browser.user@example.com');
    expect(users).toHaveLength(1);
    const userId = users[0]!.id;
    const passkeys = svc.emulator.rt.store.ofTenant('passkeys', ACME_TENANT_ID).filter((passkey) => passkey.userId === userId);
    expect(passkeys).toHaveLength(1);

    await page.click('#login');
    expect(await settle('signed-in')).toContain(userId);
    const sessions = svc.emulator.rt.store.ofTenant('sessions', ACME_TENANT_ID).filter((session) => session.userId === userId);
    expect(sessions.map((session) => session.method)).toEqual(['passkey', 'passkey']);
    expect(svc.emulator.rt.store.get('passkeys', passkeys[0]!.id)!.counter).toBeGreaterThan(0);

    const token = await page.inputValue('#token');
    const me = await svc.request('GET', '/mfa/status', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  }, 60_000);

  it('shows the API error when the page origin is not allowed', async () => {
    await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins: ['http://localhost:4010'] } } } });
    try {
      await page.goto(`${pageOrigin}/_emulator/ui/passkey?key=${ACME_KEY}`);
      await page.click('#login');
      await page.locator('#result[data-state="error"]').waitFor({ state: 'attached', timeout: 15_000 });
      expect(await page.locator('#status').textContent()).toContain('webauthn_origin_mismatch');
    } finally {
      await svc.request('PATCH', '/tenant', { body: { settings: { webauthn: { origins: [pageOrigin] } } } });
    }
  }, 60_000);
});
