/**
 * `svc exec`, `svc requests` and `svc export` as real processes (the built binary): the command
 * runs once the emulator is ready, with its environment; its exit code is svc's; a failure
 * leaves the artefacts; a signal reaches the command; an export seeds a fresh emulator again.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, SVC_BIN } from '../src/test-support/cli.js';
import { tempDataDir } from '../src/test-support/harness.js';

/** Writes a Node script (ES module) into a temp dir and answers its path. */
function script(source: string): string {
  const file = join(tempDataDir(), 'script.mjs');
  writeFileSync(file, source);
  return file;
}

const CALL = `
const call = async (method, path, body, key = process.env.SVC_API_KEY) => {
  const response = await fetch(process.env.SVC_URL + path, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
};
`;

describe('svc exec', () => {
  it('runs the command against a ready, seeded emulator with SVC_URL and both keys, and exits with its code', async () => {
    const file = script(`${CALL}
      const ready = await fetch(process.env.SVC_URL + '/readyz');
      const first = await call('GET', '/tenant');
      const second = await call('GET', '/tenant', undefined, process.env.SVC_SECOND_API_KEY);
      console.log(JSON.stringify({ ready: ready.status, first: first.body.data.id, second: second.body.data.id, env: process.env.SVC_TENANT_ID }));
    `);
    const result = await runCli(['exec', '--', process.execPath, file], { timeoutMs: 30_000 });
    expect(result.stderr).toMatch(/svc exec: emulator ready at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.stdout.trim()) as Record<string, unknown>;
    expect(seen).toEqual({ ready: 200, first: 'ten_acme0000000000000001', second: 'ten_globex00000000000001', env: 'ten_acme0000000000000001' });
  });

  it('on failure returns the command’s code and leaves the log, the journal and the store in --artifacts', async () => {
    const artifacts = join(tempDataDir(), 'artifacts');
    const file = script(`${CALL}
      const made = await call('POST', '/users', { email: 'failing@exec.test' });
      if (made.status !== 201) process.exit(99);
      process.exit(7);
    `);
    const result = await runCli(['exec', '--artifacts', artifacts, '--', process.execPath, file], { timeoutMs: 30_000 });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`the command failed (exit 7)`);
    expect(readFileSync(join(artifacts, 'emulator.log'), 'utf8')).toMatch(/POST\s+\/v1\/users 201/);
    const journal = JSON.parse(readFileSync(join(artifacts, 'requests.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(journal).toContainEqual(expect.objectContaining({ method: 'POST', path: '/v1/users', status: 201, requestBody: { email: 'failing@exec.test' } }));
    const store = JSON.parse(readFileSync(join(artifacts, 'store.json'), 'utf8')) as { users: Array<{ email: string }> };
    expect(store.users.map((user) => user.email)).toContain('failing@exec.test');
    expect(readFileSync(join(artifacts, 'fixture.json'), 'utf8')).toContain('failing@exec.test');
  });

  it('leaves no artefacts when the command passes, and says 127 for a command that does not exist', async () => {
    const artifacts = join(tempDataDir(), 'artifacts');
    expect((await runCli(['exec', '--artifacts', artifacts, '--', process.execPath, '-e', ''], { timeoutMs: 30_000 })).code).toBe(0);
    expect(existsSync(artifacts)).toBe(false);
    const missing = await runCli(['exec', '--', 'no-such-command-svc-test'], { timeoutMs: 30_000 });
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('cannot run no-such-command-svc-test: no such command');
  });

  it('passes SIGTERM on to the command and exits with what the command then exits with', async () => {
    const file = script(`
      process.on('SIGTERM', () => { console.log('command got SIGTERM'); process.exit(42); });
      console.log('started');
      setInterval(() => {}, 1000);
    `);
    const child = spawn(process.execPath, [SVC_BIN, 'exec', '--', process.execPath, file], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('started')) resolve();
      });
    });
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stdout).toContain('command got SIGTERM');
    expect(code).toBe(42);
  });

  it('exports on exit a fixture that a second run seeds from, and svc requests reads the journal', async () => {
    const state = join(tempDataDir(), 'state.json');
    const first = script(`${CALL}
      await call('POST', '/users', { email: 'kept@exec.test', name: 'Kept' });
      await call('POST', '/apps', { name: 'Kept app' });
    `);
    expect((await runCli(['exec', '--export-on-exit', state, '--', process.execPath, first], { timeoutMs: 30_000 })).code).toBe(0);
    const second = script(`${CALL}
      import { execFileSync } from 'node:child_process';
      const users = await call('GET', '/users?search=kept@exec.test');
      const apps = await call('GET', '/apps?search=Kept');
      const journal = JSON.parse(execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'requests', '--json', '--path', '/v1/users'], { encoding: 'utf8' }));
      console.log(JSON.stringify({ users: users.body.data.map((u) => u.name), apps: apps.body.data.map((a) => a.name), journal: journal.map((e) => e.method + ' ' + e.path + e.query) }));
    `);
    const result = await runCli(['exec', '--seed', state, '--', process.execPath, second], { timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({ users: ['Kept'], apps: ['Kept app'], journal: ['GET /v1/users?search=kept@exec.test'] });
  });

  it('svc requests prints and follows the journal, svc export writes the fixture, svc webhook redeliver checks its usage', async () => {
    const out = join(tempDataDir(), 'export.json');
    const file = script(`${CALL}
      import { execFileSync, spawn } from 'node:child_process';
      import { readFileSync } from 'node:fs';
      const svc = (...args) => execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      await call('GET', '/users/usr_missing00000000000000');
      const printed = svc('requests', '--status', '4xx', '--bodies');
      const tail = spawn(process.execPath, [${JSON.stringify(SVC_BIN)}, 'requests', '--tail', '--json', '--method', 'POST']);
      let lines = '';
      tail.stdout.on('data', (chunk) => (lines += chunk));
      await new Promise((resolve) => setTimeout(resolve, 800));
      await call('POST', '/apps', { name: 'Followed' });
      while (!lines.includes('Followed')) await new Promise((resolve) => setTimeout(resolve, 100));
      tail.kill('SIGTERM');
      svc('export', '--out', ${JSON.stringify(out)});
      let usage;
      try { svc('webhook', 'redeliver'); } catch (error) { usage = { status: error.status, stderr: String(error.stderr) }; }
      console.log(JSON.stringify({ printed, followed: JSON.parse(lines.trim().split(String.fromCharCode(10))[0]), exported: JSON.parse(readFileSync(${JSON.stringify(out)}, 'utf8')).tenants.map((t) => t.name), usage }));
    `);
    const result = await runCli(['exec', '--', process.execPath, file], { timeoutMs: 60_000 });
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    const seen = JSON.parse(result.stdout.trim()) as {
      printed: string;
      followed: Record<string, unknown>;
      exported: string[];
      usage: { status: number; stderr: string };
    };
    expect(seen.printed).toMatch(/GET\s+\/v1\/users\/usr_missing00000000000000 404 [\d.]+ms req_\w+ ten_acme0000000000000001\n\s+answered \{"error":/);
    expect(seen.followed).toMatchObject({ method: 'POST', path: '/v1/apps', status: 201, requestBody: { name: 'Followed' } });
    expect(seen.exported).toEqual(['Acme Wallet', 'Globex Identity']);
    expect(seen.usage).toMatchObject({ status: 2 });
    expect(seen.usage.stderr).toContain('name one event id, or give --since');
  });

  it('refuses a run with no command, as a usage error', async () => {
    const result = await runCli(['exec'], { timeoutMs: 15_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing required argument 'command'/);
  });
});
