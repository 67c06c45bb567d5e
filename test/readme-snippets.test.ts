/**
 * Documentation snippets that talk to the emulator are cut out of docs/sign-in.md and run against
 * a real one: the Telegram snippet must sign data the emulator accepts even after `svc clock advance`
 *, and the passkey-origin snippet must add an origin while keeping the others
 *.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

const PAGE = new URL('../docs/sign-in.md', import.meta.url);

/** The first ```js block after `marker` in docs/sign-in.md. */
function snippet(marker: string): string {
  const page = readFileSync(PAGE, 'utf8');
  const at = page.indexOf(marker);
  if (at === -1) throw new Error(`docs/sign-in.md has no "${marker}"`);
  const match = /```js\n([^]*?)```/.exec(page.slice(at));
  if (!match) throw new Error(`no \`\`\`js block after "${marker}" in docs/sign-in.md`);
  return match[1]!;
}

async function runSnippet<T>(source: string, origin: string, exports = ''): Promise<T> {
  const runnable = `${source.replaceAll('http://127.0.0.1:4010', origin)}\n${exports}\n`;
  return (await import(`data:text/javascript;base64,${Buffer.from(runnable).toString('base64')}`)) as T;
}

describe('docs/sign-in.md snippets against a real emulator', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
  });
  afterAll(() => svc.close());

  it('signs widget data and initData that the emulator accepts with its clock two days ahead', async () => {
    const source = snippet('**Telegram.**');
    expect(source).toContain('http://127.0.0.1:4010/_emulator/clock');
    const { widget, initData } = await runSnippet<{ widget: Record<string, unknown>; initData: string }>(source, svc.origin, 'export { widget, initData };');
    for (const body of [widget, { initData }]) {
      const answer = await svc.request('POST', '/auth/telegram/verify', { body });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.session.token).toMatch(/^st_/);
    }
  });

  it('adds a passkey origin and keeps the default one, twice without harm', async () => {
    const source = snippet('`PATCH /v1/tenant` replaces');
    for (let run = 0; run < 2; run++) await runSnippet(source, svc.origin);
    const tenant = await svc.request('GET', '/tenant');
    // The seeded origin is the emulator's own, on the port it serves.
    expect(tenant.body.data.settings.webauthn.origins).toEqual([`http://localhost:${new URL(svc.origin).port}`, 'http://localhost:5173']);
  });
});
