/**
 * Debian's chromium, headless, driven by playwright-core, for browser tests. Never downloads a
 * browser: without /usr/bin/chromium or /usr/bin/chromium-browser (or $CHROMIUM_PATH) the tests
 * are skipped with a clear message, unless REQUIRE_BROWSER=1 (CI), where they fail instead.
 * Also the measurements the page-layout assertions share (overflow, line boxes, alignment).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Where chromium is looked for; $CHROMIUM_PATH, when set, is the only place. */
const CHROMIUM_CANDIDATES = process.env['CHROMIUM_PATH'] ? [process.env['CHROMIUM_PATH']] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const CHROMIUM_PATH = CHROMIUM_CANDIDATES.find((path) => existsSync(path)) ?? CHROMIUM_CANDIDATES[0]!;

/**
 * What `expect.poll` waits for in a browser test: as long as a locator waits (10 s), not
 * vitest's default second, which a navigation or a render on a loaded machine can outlast.
 */
export const POLL = { timeout: 10_000 } as const;

/** Screenshots and other artifacts the tests keep (gitignored). */
export const ARTIFACTS_DIR = resolve(fileURLToPath(new URL('../../test-artifacts', import.meta.url)));

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether the browser tests can run here; when they cannot, why (to print when skipping). */
export function browserAvailability(): { available: boolean; reason: string } {
  if (existsSync(CHROMIUM_PATH)) return { available: true, reason: '' };
  const reason = `chromium not found at ${CHROMIUM_CANDIDATES.join(' or ')}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
  if (process.env['REQUIRE_BROWSER'] === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  return { available: false, reason };
}

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts chromium on a fresh profile dir (removed on close). Playwright takes the profile as
 * launchPersistentContext's first argument rather than as `--user-data-dir` in `args`.
 */
export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1360, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The path of a screenshot under test-artifacts/<suite>/, creating the directory. */
export function artifactPath(suite: string, name: string): string {
  const dir = join(ARTIFACTS_DIR, suite);
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/**
 * Gives `page` a CTAP2 platform authenticator (CDP's WebAuthn domain) that holds resident keys,
 * verifies the user and answers at once, so navigator.credentials needs no person.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** How many pixels of the element's content stick out sideways (scrollWidth − clientWidth); 0 when it fits. */
export function horizontalOverflow(locator: Locator): Promise<number> {
  return locator.evaluate((element) => Math.max(0, element.scrollWidth - element.clientWidth));
}

/** How many line boxes an inline element takes: 1 when it does not wrap. */
export function lineBoxes(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.getClientRects().length);
}

/**
 * The vertical distance, in pixels, between the centre of the form control `control` and the
 * centre of the rest of its label's content (the words beside it).
 */
export function labelOffset(control: Locator): Promise<number> {
  return control.evaluate((element) => {
    const label = element.closest('label');
    if (!label) throw new Error('the control is not inside a label');
    const words = element.ownerDocument.createRange();
    words.setStartAfter(element);
    words.setEnd(label, label.childNodes.length);
    const box = element.getBoundingClientRect();
    const text = words.getBoundingClientRect();
    if (text.height === 0) throw new Error('the label has no words after the control');
    return Math.abs(box.top + box.height / 2 - (text.top + text.height / 2));
  });
}

/** The element's computed text colour, as `rgb(…)`. */
export function textColour(locator: Locator): Promise<string> {
  return locator.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).color);
}
