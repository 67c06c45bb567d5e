/**
 * The README's Telegram snippet ("To make test data…") must sign data the emulator accepts even
 * after `svc clock advance` (issue 16 item 4): it is cut out of README.md, pointed at a real
 * emulator whose clock is two days ahead, run, and its widget data and initData are verified.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

const README = new URL('../README.md', import.meta.url);

function snippet(): string {
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('**Telegram.**'));
  const match = /```js\n([^]*?)```/.exec(section);
  if (!match) throw new Error('no ```js block under **Telegram.** in README.md');
  return match[1]!;
}

describe('the README Telegram snippet', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
  });
  afterAll(() => svc.close());

  it('signs widget data and initData that the emulator accepts with its clock two days ahead', async () => {
    const source = snippet();
    expect(source).toContain('http://127.0.0.1:4010/_emulator/clock');
    const runnable = `${source.replaceAll('http://127.0.0.1:4010', svc.origin)}\nexport { widget, initData };\n`;
    const { widget, initData } = (await import(`data:text/javascript;base64,${Buffer.from(runnable).toString('base64')}`)) as {
      widget: Record<string, unknown>;
      initData: string;
    };
    for (const body of [widget, { initData }]) {
      const answer = await svc.request('POST', '/auth/telegram/verify', { body });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.session.token).toMatch(/^st_/);
    }
  });
});
