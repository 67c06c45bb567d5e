/**
 * Debian's chromium, headless, driven by playwright-core, for browser tests. Never downloads a
 * browser: without /usr/bin/chromium (or $CHROMIUM_PATH) the tests are skipped with a clear
 * message, unless REQUIRE_BROWSER=1 (CI), where they fail instead.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

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
  const reason = `chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
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
