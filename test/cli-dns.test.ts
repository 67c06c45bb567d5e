/** svc dns set|list|remove, run as the built binary against a real emulator; a record set verifies a custom domain (docs/control-plane.md#emulated-dns). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../src/test-support/cli.js';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

/** One line on stderr, no stack trace. */
function expectOneLineError(result: CliResult, code: number, text: string): void {
  expect(result.code).toBe(code);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).toContain(text);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('svc dns against a running emulator', () => {
  let svc: TestEmulator;
  let url: string[];
  beforeAll(async () => {
    svc = await startTestEmulator();
    url = ['--url', svc.origin];
  });
  afterAll(() => svc.close());

  it.each([['dns'], ['dns', 'set'], ['dns', 'list'], ['dns', 'remove']].map((command) => [command.join(' '), command] as const))(
    'svc %s --help shows examples',
    async (_, command) => {
      const help = await runCli([...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
      expect(help.stdout).toContain(`$ svc ${command.join(' ')}`);
    },
  );

  it('publishes the record a registration answered, so the domain verifies; lists it; removes it', async () => {
    const { verification } = (await svc.request('POST', '/custom-domains', { body: { domain: 'cli.example.com' } })).body.data;
    const set = await runCli(['dns', 'set', verification.name, 'v=spf1 -all', verification.value, ...url]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`Set ${verification.name}  "v=spf1 -all" "${verification.value}"`);

    const verified = await svc.request('POST', '/custom-domains/verify');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.status).toBe('verified');

    const human = await runCli(['dns', 'list', ...url]);
    expect(human.stdout).toMatch(new RegExp(`^${verification.name.replaceAll('.', '\\.')} {2}"v=spf1 -all" "${verification.value}" {2}\\(set \\d{4}-`));
    const json = await runCli(['dns', 'list', '--json', ...url]);
    expect(JSON.parse(json.stdout)).toEqual([{ name: verification.name, values: ['v=spf1 -all', verification.value], updatedAt: expect.any(String) }]);

    const removed = await runCli(['dns', 'rm', verification.name, ...url]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed the TXT record of ${verification.name}.\n`);
    expect((await runCli(['dns', 'list', ...url])).stdout).toBe('No emulated TXT records.\n');
    await svc.request('DELETE', '/custom-domains');
  });

  it('says in one line what is wrong: a name that is not a DNS name, a value too long, a name with no record', async () => {
    expectOneLineError(await runCli(['dns', 'set', 'not a name', 'x', ...url]), 1, 'a DNS name label "not a name"');
    expectOneLineError(await runCli(['dns', 'set', 'ok.example.com', 'v'.repeat(256), ...url]), 1, 'at most 255 characters');
    expectOneLineError(await runCli(['dns', 'remove', 'none.example.com', ...url]), 1, 'emulated TXT record none.example.com not found');
    expectOneLineError(await runCli(['dns', 'list', '--url', 'http://127.0.0.1:1']), 2, 'cannot reach the emulator');
  });
});
