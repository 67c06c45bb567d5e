/**
 * `svc serve --webhook-targets` and SVC_WEBHOOK_TARGETS as a user runs them: the built CLI in
 * its own process, a policy that cannot be read refused before the start, and the policy
 * given applied to registrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/test-support/cli.js';
import { ACME_KEY, sendRequest } from '../src/test-support/harness.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const running: ServeProcess[] = [];

/** Starts `svc serve --in-memory` with SVC_WEBHOOK_TARGETS set to `env` (unset when undefined). */
async function serveWith(args: string[], env: string | undefined): Promise<ServeProcess> {
  const before = process.env['SVC_WEBHOOK_TARGETS'];
  if (env === undefined) delete process.env['SVC_WEBHOOK_TARGETS'];
  else process.env['SVC_WEBHOOK_TARGETS'] = env;
  try {
    const served = await startServeProcess(['--in-memory', ...args]);
    running.push(served);
    return served;
  } finally {
    if (before === undefined) delete process.env['SVC_WEBHOOK_TARGETS'];
    else process.env['SVC_WEBHOOK_TARGETS'] = before;
  }
}

function register(served: ServeProcess, url: string) {
  return sendRequest(`${served.baseUrl}/webhooks`, 'POST', { key: ACME_KEY, body: { url, events: ['*'] } });
}

describe('svc serve --webhook-targets', () => {
  beforeAll(ensureBuilt, 120_000);
  afterAll(async () => {
    for (const served of running) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });

  it('explains the policy in --help, with an example', async () => {
    const help = await runCli(['serve', '--help']);
    expect(help.stdout).toContain('--webhook-targets <policy>');
    expect(help.stdout).toContain('SVC_WEBHOOK_TARGETS');
    expect(help.stdout).toContain('svc serve --host 0.0.0.0 --webhook-targets public,10.20.0.0/16,hooks.internal');
  });

  it.each([
    [
      ['--webhook-targets', 'public,10.0.0.0/33'],
      {},
      'error: --webhook-targets "public,10.0.0.0/33": "10.0.0.0/33": the prefix length must be a whole number from 0 to 32\n',
    ],
    [
      [],
      { SVC_WEBHOOK_TARGETS: 'locals' },
      'error: SVC_WEBHOOK_TARGETS "locals": "locals" is neither a preset (local, public, any), a network such as 10.0.0.0/8 or fd00::/8, nor a host name with a dot such as hooks.internal or *.hooks.internal\n',
    ],
  ])('refuses a policy it cannot read before it starts: %j %j', async (args, env, stderr) => {
    const result = await runCli(['serve', '--in-memory', '--port', '0', ...args], { env });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it('warns when others can reach it and the policy is the default', async () => {
    // 192.0.2.1 (a documentation address) is not on this machine: the start fails after the warning, and nothing listens.
    const warned = await runCli(['serve', '--in-memory', '--port', '0', '--host', '192.0.2.1'], { env: { SVC_WEBHOOK_TARGETS: '' } });
    expect(warned.code).toBe(1);
    expect(warned.stdout + warned.stderr).toContain(
      "--host 192.0.2.1 lets others reach this emulator, and their webhooks may reach this host's private networks (--webhook-targets local, the default); on a shared host set --webhook-targets public",
    );
    const chosen = await runCli(['serve', '--in-memory', '--port', '0', '--host', '192.0.2.1', '--webhook-targets', 'public']);
    expect(chosen.code).toBe(1);
    expect(chosen.stdout + chosen.stderr).not.toContain('lets others reach');
  });

  it('takes the policy from SVC_WEBHOOK_TARGETS, and the flag over it', async () => {
    const fromEnv = await serveWith([], 'public');
    const refused = await register(fromEnv, 'http://127.0.0.1:9/hook');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('127.0.0.1 is a loopback address, and the webhook target policy "public" allows public addresses');
    const flagWins = await serveWith(['--webhook-targets', 'local'], 'public');
    expect((await register(flagWins, 'http://127.0.0.1:9/hook')).status).toBe(201);
  });

  it('keeps loopback and refuses link-local by default', async () => {
    const served = await serveWith([], undefined);
    expect((await register(served, 'http://127.0.0.1:9/hook')).status).toBe(201);
    const refused = await register(served, 'http://169.254.169.254/latest/meta-data/');
    expect(refused.status).toBe(400);
    expect(refused.body.details[0]).toMatchObject({ path: 'url', policy: 'local', range: 'link-local' });
  });
});
