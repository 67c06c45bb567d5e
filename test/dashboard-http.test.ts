/** The dashboard over plain HTTP (no browser): escaping, masking, form actions, CSRF and error pages. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeBack, withFlash } from '../src/routes/dashboard-actions.js';
import { ACME_KEY, ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

describe('dashboard over HTTP', () => {
  let svc: TestEmulator;
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${svc.origin}/_emulator/ui${path}`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { origin: svc.origin, ...headers },
      redirect: 'manual',
    });

  beforeAll(async () => {
    svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T10:00:00.000Z') } });
  });
  afterAll(() => svc.close());

  it.each(['', '/webhooks', '/dlq', '/events', '/control', `/tenants/${ACME_TENANT_ID}`, `/tenants/${ACME_TENANT_ID}/users?page=2`])(
    'serves %s as an HTML page',
    async (path) => {
      const answer = await fetch(`${svc.origin}/_emulator/ui${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await answer.text()).toMatch(/^<!doctype html><html lang="en">/);
    },
  );

  it('escapes what users typed and never shows a key value', async () => {
    await svc.request('POST', '/apps', { body: { name: '<script>alert("x")</script>', description: '<img src=x onerror=alert(1)>' } });
    const page = await (await fetch(`${svc.origin}/_emulator/ui/tenants/${ACME_TENANT_ID}`)).text();
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain(ACME_KEY);
    expect(page).toContain('sk_test_acme…0001');
  });

  it('answers a form action 303 back to the page with its message, and the page shows it', async () => {
    const answer = await form('/clock/advance', { by: '2h', back: '/_emulator/ui/dlq' });
    expect(answer.status).toBe(303);
    const location = answer.headers.get('location')!;
    expect(location).toMatch(/^\/_emulator\/ui\/dlq\?flash=/);
    const page = await (await fetch(`${svc.origin}${location}`)).text();
    expect(page).toContain('Advanced the clock by 2h: 0 delivery attempts fired.');
    expect((await svc.request('GET', '/_emulator/clock')).body.data.now).toMatch(/^2026-11-21T12:0/);
  });

  it('comes back with the validation error in one line when a field is wrong', async () => {
    const answer = await form('/faults', { path: 'no-slash', count: '0', back: '/_emulator/ui/control' });
    const location = new URL(answer.headers.get('location')!, svc.origin);
    expect(location.searchParams.get('kind')).toBe('error');
    expect(location.searchParams.get('flash')).toMatch(/path: .*count: /);
    expect((await svc.request('GET', '/_emulator/faults')).body.data).toEqual([]);
  });

  it("adds a fault for one tenant's requests from the form, and the control page shows whose it is", async () => {
    const answer = await form('/faults', { path: '/apps', status: '503', count: '1', tenant: ACME_TENANT_ID, back: '/_emulator/ui/control' });
    const location = new URL(answer.headers.get('location')!, svc.origin);
    expect(location.searchParams.get('flash')).toMatch(
      new RegExp(`^Fault flt_\\w+: the next 1 request of ${ACME_TENANT_ID} to any method /apps will answer 503\\.$`),
    );
    const [fault] = (await svc.request('GET', '/_emulator/faults')).body.data as Array<{ id: string; tenant: string | null }>;
    expect(fault?.tenant).toBe(ACME_TENANT_ID);
    const page = await (await fetch(`${svc.origin}/_emulator/ui/control`)).text();
    expect(page).toContain(`<td class="mono">${ACME_TENANT_ID}</td>`);
    expect((await svc.request('GET', '/apps')).status).toBe(503);
    expect((await svc.request('DELETE', '/_emulator/faults')).status).toBe(200);
  });

  it('seeds from the form and refuses JSON that is not JSON', async () => {
    const fixture = { tenants: [{ name: 'Form Co', apiKeys: [{ name: 'k', key: 'sk_test_formSeededKey0000000000000000001' }] }] };
    const seeded = await form('/seed', { fixture: JSON.stringify(fixture), back: '/_emulator/ui/control' });
    expect(new URL(seeded.headers.get('location')!, svc.origin).searchParams.get('flash')).toMatch(/^Seeded 1 tenant: Form Co \(ten_/);
    expect((await svc.request('GET', '/tenant', { key: 'sk_test_formSeededKey0000000000000000001' })).body.data.name).toBe('Form Co');
    const bad = await form('/seed', { fixture: '{nope', back: '/_emulator/ui/control' });
    expect(new URL(bad.headers.get('location')!, svc.origin).searchParams.get('flash')).toContain('not valid JSON');
  });

  it('refuses an action posted from another site (CSRF), before any route, in the error envelope', async () => {
    const cross = await form('/reset', { back: '/_emulator/ui' }, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { code: string }).code).toBe('cross_site_request');
    const otherOrigin = await form('/faults/clear', {}, { origin: 'http://localhost:9999' });
    expect(otherOrigin.status).toBe(403);
  });

  it('shows an HTML 404 for an unknown record or page', async () => {
    for (const path of ['/tenants/ten_nope', '/webhooks/whk_nope', '/deliveries/dlv_nope', '/nowhere']) {
      const answer = await fetch(`${svc.origin}/_emulator/ui${path}`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain('<h1>Not found</h1>');
    }
  });

  it('redirects a failed retry back with the reason', async () => {
    const answer = await form('/deliveries/dlv_nope/retry', { back: '/_emulator/ui/dlq' });
    expect(new URL(answer.headers.get('location')!, svc.origin).searchParams.get('flash')).toBe('delivery dlv_nope not found');
  });

  it.each([
    { back: '/_emulator/ui/dlq?x=1', safe: '/_emulator/ui/dlq?x=1' },
    { back: 'https://evil.example/', safe: '/_emulator/ui' },
    { back: '//evil.example/_emulator/ui', safe: '/_emulator/ui' },
    { back: '/_emulator/ui/../../v1/users', safe: '/_emulator/ui' },
    { back: '/_emulator/ui\\@evil', safe: '/_emulator/ui' },
    { back: undefined, safe: '/_emulator/ui' },
  ])('comes back only to a page of this server: $back', ({ back, safe }) => {
    expect(safeBack(back)).toBe(safe);
  });

  it('replaces an older message when it adds a new one', () => {
    expect(withFlash('/_emulator/ui/dlq?flash=old&kind=error&page=2', { kind: 'ok', message: 'new' })).toBe('/_emulator/ui/dlq?flash=new&kind=ok&page=2');
  });
});
