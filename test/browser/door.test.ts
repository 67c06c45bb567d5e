/**
 * A page of another origin cannot change the emulator through the control plane or the
 * dashboard (docs/control-plane.md#browsers), in Debian's chromium: a page served from another
 * loopback port posts a field-less form to /_emulator/reset, a text/plain fetch, a no-cors fetch
 * that asks for JSON and the x-svc-control header (which no-cors drops), and a form to a
 * dashboard action. Each request reaches svc and is answered 403 (seen in svc's own request log,
 * as the page itself cannot read the answers), and the store, the clock and the faults are as
 * before. The dashboard's own buttons still work in the same browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Logger } from '../../src/logger.js';
import { browserAvailability, launchBrowser, POLL, type TestBrowser } from '../../src/test-support/browser.js';
import { startTestEmulator, type TestEmulator } from '../../src/test-support/harness.js';
import { usageMeter } from '../../src/services/usage.js';

const availability = browserAvailability();
if (!availability.available) console.warn(`Skipping the control-plane door browser test: ${availability.reason}`);

/** The attacker's page: two forms, one to the control plane and one to a dashboard action, with no field of their own. */
function attackPage(svcOrigin: string): string {
  return `<!doctype html><title>another site</title>
<form id="reset" method="post" action="${svcOrigin}/_emulator/reset"></form>
<form id="dashboard" method="post" action="${svcOrigin}/_emulator/ui/faults/clear"><input type="hidden" name="back" value="/_emulator/ui"></form>`;
}

async function startPageServer(svcOrigin: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(attackPage(svcOrigin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!availability.available)('a page on another origin against the control plane and the dashboard, in chromium', () => {
  let svc: TestEmulator;
  let pages: { origin: string; close(): Promise<void> };
  let browser: TestBrowser;
  let page: Page;

  /** The store, the clock and the faults, read from node as a program. */
  async function state(): Promise<string> {
    const parts = await Promise.all(['/_emulator/export', '/_emulator/clock', '/_emulator/faults'].map((path) => svc.request('GET', path)));
    return parts.map((part) => part.text).join('\n');
  }

  /** Every request svc answered, as its log saw it. */
  const answered: Array<{ method: string; path: string; status: number }> = [];
  const recording: Logger = { log: () => {}, request: ({ method, path, status }) => void answered.push({ method, path, status }), logsRequests: true };

  /** Runs `act` in the page and answers the status svc gave the POST to `path` it made. */
  async function statusOf(path: string, act: () => Promise<unknown>): Promise<number> {
    const from = answered.length;
    await act();
    const posted = () => answered.slice(from).find((entry) => entry.method === 'POST' && entry.path === path);
    await expect.poll(() => posted() !== undefined, POLL).toBe(true);
    return posted()!.status;
  }

  beforeAll(async () => {
    svc = await startTestEmulator({ inMemory: true, logger: recording, clock: { startTime: new Date('2026-11-21T10:00:00.000Z'), speed: 0.000001 } });
    pages = await startPageServer(svc.origin);
    // A user that a reset would remove, its usage in the store before the first snapshot.
    expect((await svc.request('POST', '/users', { body: { email: 'kept@example.com' } })).status).toBe(201);
    await usageMeter(svc.emulator.rt).flush();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await svc?.close();
  });

  it('a field-less form posted to /_emulator/reset is answered 403 and empties nothing', async () => {
    await page.goto(`${pages.origin}/`);
    const before = await state();
    const [navigation] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${svc.origin}/_emulator/reset`),
      page.evaluate('document.getElementById("reset").submit()'),
    ]);
    // The form's answer is a page the browser shows, so it can be read here.
    expect(navigation.status()).toBe(403);
    expect(await navigation.request().headerValue('origin')).toBe(pages.origin);
    expect(await navigation.json()).toMatchObject({ code: 'cross_site_request' });
    expect(await state()).toBe(before);
  });

  it('a text/plain fetch and a no-cors fetch that asks for JSON and x-svc-control are answered 403 and change nothing', async () => {
    await page.goto(`${pages.origin}/`);
    const before = await state();
    const plain = await statusOf('/_emulator/reset', () =>
      page.evaluate(
        (url) => fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }).catch(String),
        `${svc.origin}/_emulator/reset`,
      ),
    );
    expect(plain).toBe(403);
    const sentHeaders = page.waitForRequest((request) => request.url() === `${svc.origin}/_emulator/faults`);
    const noCors = await statusOf('/_emulator/faults', () =>
      page.evaluate(
        (url) =>
          fetch(url, {
            method: 'POST',
            mode: 'no-cors',
            body: JSON.stringify({ path: '/users', count: 1 }),
            headers: { 'content-type': 'application/json', 'x-svc-control': '1' },
          }).then((res) => res.type),
        `${svc.origin}/_emulator/faults`,
      ),
    );
    expect(noCors).toBe(403);
    // no-cors let the page send only what a form could: neither header reached svc.
    const sent = await (await sentHeaders).allHeaders();
    expect(sent['x-svc-control']).toBeUndefined();
    expect(sent['content-type']).toMatch(/^text\/plain/);
    expect(await state()).toBe(before);
  });

  it("a form posted to a dashboard action from the other origin is answered 403 and changes nothing, and the dashboard's own buttons work", async () => {
    expect((await svc.request('POST', '/_emulator/faults', { body: { path: '/users', status: 503, count: 5 } })).status).toBe(201);
    await page.goto(`${pages.origin}/`);
    const before = await state();
    const answer = await statusOf('/_emulator/ui/faults/clear', () => page.evaluate('document.getElementById("dashboard").submit()'));
    expect(answer).toBe(403);
    await page.waitForURL(`${svc.origin}/_emulator/ui/faults/clear`);
    expect(await state()).toBe(before);

    // The dashboard's page posts its own forms with svc's Origin: its buttons still work.
    await page.goto(`${svc.origin}/_emulator/ui/control`);
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.waitForURL(/flash=/);
    await expect.poll(() => page.locator('.flash').innerText(), POLL).toContain('Cleared 1 fault.');
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([]);
    await page.getByRole('button', { name: '+1h' }).click();
    await expect.poll(() => page.locator('.flash').innerText(), POLL).toContain('Advanced the clock by 1h');
  });
});
