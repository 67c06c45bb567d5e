/**
 * A front-end on another origin calls the emulator from the browser: a page served
 * from another loopback port runs fetch() in Debian's chromium against /v1/users with the API
 * key, so the browser sends a real preflight, and reads the data and the exposed headers. With
 * `--cors off` the same page's fetch is blocked by the browser, so the first case can fail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailability, launchBrowser, type TestBrowser } from '../../src/test-support/browser.js';
import { ACME_KEY, startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';

const availability = browserAvailability();
if (!availability.available) console.warn(`Skipping the CORS browser test: ${availability.reason}`);

/** What the page's script reports: the data and headers it read, or the error fetch threw. */
interface Outcome {
  status?: number;
  count?: number;
  firstId?: string;
  requestId?: string | null;
  rateLimitRemaining?: string | null;
  error?: string;
}

/** A page server on its own loopback port: the front-end's origin, not the emulator's. */
async function startPageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>front-end</title><p>A front-end on another origin</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** fetch() in the page, as a front-end's code calls the API, with a header that needs a preflight. */
function callFromPage(page: Page, url: string): Promise<Outcome> {
  return page.evaluate(
    async ({ url, key }) => {
      try {
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        const body = (await res.json()) as { data: Array<{ id: string }> };
        return {
          status: res.status,
          count: body.data.length,
          firstId: body.data[0]?.id ?? '',
          requestId: res.headers.get('x-request-id'),
          rateLimitRemaining: res.headers.get('ratelimit-remaining'),
        };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, key: ACME_KEY },
  );
}

describe.skipIf(!availability.available)('a page on another origin calls the API in chromium', () => {
  let svc: TestEmulator;
  let closed: TestEmulator;
  let pages: { origin: string; close(): Promise<void> };
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    [svc, closed, pages] = await Promise.all([startTestEmulator(), startTestEmulator({ cors: 'off' }), startPageServer()]);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${pages.origin}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await svc?.close();
    await closed?.close();
  });

  it('reads /v1/users and the x-request-id and RateLimit headers', async () => {
    expect(new URL(svc.origin).port).not.toBe(new URL(pages.origin).port);
    const outcome = await callFromPage(page, `${svc.baseUrl}/users?page_size=2`);
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe(200);
    expect(outcome.count).toBe(2);
    const direct = await svc.request('GET', '/users?page_size=2');
    expect(outcome.firstId).toBe(direct.body.data[0].id);
    expect(outcome.requestId).toMatch(/^req_\w{20}$/);
    expect(Number(outcome.rateLimitRemaining)).toBeGreaterThanOrEqual(0);
  });

  it('is blocked by the browser when the emulator runs with --cors off', async () => {
    const outcome = await callFromPage(page, `${closed.baseUrl}/users?page_size=2`);
    expect(outcome.error).toMatch(/TypeError: Failed to fetch/);
  });
});
