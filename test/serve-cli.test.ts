/**
 * `svc serve` as a user runs it: the built CLI in its own process (`node bin/svc.js serve`),
 * its printed URLs and keys, a request with the printed key, a clean SIGINT, and the errors
 * a user can act on (busy port, locked data dir, bad --seed) as one line without a stack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { ensureBuilt } from '../src/test-support/serve-process.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'svc.js');
// The escape character that starts a terminal colour code.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

const work = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const children: ChildProcess[] = [];

interface Served {
  child: ChildProcess;
  baseUrl: string;
  dashboardUrl: string;
  keys: Array<{ key: string; tenant: string }>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['FORCE_COLOR'];
  return env;
}

function launch(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env: { ...cliEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stdout: () => out.replace(ANSI, ''), stderr: () => err.replace(ANSI, ''), exited };
}

/** Runs `svc serve …` until it prints its ready block, then parses it. */
async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const run = launch(['serve', ...args], env);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = run.stdout();
    if (/emulator ready[\s\S]*\n {2}API key[^\n]*\n/.test(text)) break;
    if (run.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`svc serve did not get ready (exit ${run.child.exitCode}):\n${text}\n${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const text = run.stdout();
  const keys = [...text.matchAll(/^ {2}API key +(sk_test_\w+) +\((.+)\)$/gm)].map((m) => ({ key: m[1]!, tenant: m[2]! }));
  return {
    ...run,
    baseUrl: /^ {2}API +(\S+)$/m.exec(text)?.[1] ?? '',
    dashboardUrl: /^ {2}Dashboard +(\S+)$/m.exec(text)?.[1] ?? '',
    keys,
  };
}

/** Runs a command that should fail at once; answers its exit code and output. */
async function runToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = launch(args, env);
  const code = await Promise.race([
    run.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running: ${run.stdout()}`)), 15_000)),
  ]);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

function expectOneLineError(stderr: string, ...fragments: Array<string | RegExp>): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(stderr).not.toMatch(/\n\s+at |Error: /);
  for (const fragment of fragments) expect(lines[0]).toMatch(fragment);
}

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('svc serve --port 0', () => {
  const dataDir = join(work, 'main-data');
  let svc: Served;
  beforeAll(async () => {
    svc = await serve(['--port', '0', '--data-dir', dataDir]);
  });

  it('prints the real base URL, the dashboard URL and both seeded keys', () => {
    const base = /^http:\/\/127\.0\.0\.1:(\d+)\/v1$/.exec(svc.baseUrl);
    expect(base, svc.stdout()).not.toBeNull();
    const port = Number(base![1]);
    expect(port).toBeGreaterThan(0);
    expect(svc.dashboardUrl).toBe(`http://127.0.0.1:${port}/_emulator/ui`);
    expect(svc.keys).toEqual([
      { key: ACME_KEY, tenant: 'Acme Wallet' },
      { key: GLOBEX_KEY, tenant: 'Globex Identity' },
    ]);
    expect(svc.stdout()).toContain(resolve(dataDir));
    // Not the CLI's default address: the line that points the other commands here.
    expect(svc.stdout()).toMatch(new RegExp(`^ {2}CLI +export SVC_URL=${svc.baseUrl.replaceAll('.', '\\.')}$`, 'm'));
  });

  it("answers the README's curl with the printed key, and 401 in the envelope without it", async () => {
    const res = await fetch(`${svc.baseUrl}/users?page=2&page_size=5`, { headers: { 'x-api-key': svc.keys[0]!.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as { data: unknown[]; total: number; page: number; pageSize: number; hasMore: boolean };
    expect(body).toMatchObject({ total: 50, page: 2, pageSize: 5, hasMore: true });
    expect(body.data).toHaveLength(5);
    const refused = await fetch(`${svc.baseUrl}/users?page=2&page_size=5`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: expect.any(String), code: 'missing_api_key', details: [] });
  });

  it("refuses a second server on the same data dir with the first one's pid, as one line", async () => {
    const second = await runToExit(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(second.code).not.toBe(0);
    expectOneLineError(second.stderr, `pid ${svc.child.pid}`, resolve(dataDir));
    expect((await fetch(`${svc.baseUrl}/healthz`)).status).toBe(200);
  });

  it('refuses a busy --port with a one-line error that suggests --port, and exits non-zero', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    const otherDir = join(work, 'busy-port-data');
    try {
      const result = await runToExit(['serve', '--port', String(port), '--data-dir', otherDir]);
      expect(result.code).not.toBe(0);
      expectOneLineError(result.stderr, String(port), /in use/, /--port/);
      expect(existsSync(join(otherDir, 'svc.lock'))).toBe(false);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it('on SIGINT drains, flushes the store, releases the lock and exits 0', async () => {
    const created = await fetch(`${svc.baseUrl}/users`, {
      method: 'POST',
      headers: { 'x-api-key': ACME_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'before-sigint@example.com' }),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: string } };
    svc.child.kill('SIGINT');
    expect(await svc.exited).toBe(0);
    expect(svc.stderr()).not.toMatch(/\n\s+at /);
    const onDisk = JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8')) as { users: Array<{ id: string }> };
    expect(onDisk.users.map((u) => u.id)).toContain(data.id);
    expect(existsSync(join(dataDir, 'svc.lock'))).toBe(false);
  });

  it('a new server on the same dir after a crash (SIGKILL) takes the stale lock over and keeps the data', async () => {
    const first = await serve(['--port', '0', '--data-dir', dataDir]);
    const app = await fetch(`${first.baseUrl}/apps`, {
      method: 'POST',
      headers: { 'x-api-key': ACME_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash survivor' }),
    });
    expect(app.status).toBe(201);
    const { data } = (await app.json()) as { data: { id: string } };
    first.child.kill('SIGKILL');
    await first.exited;
    expect(readFileSync(join(dataDir, 'svc.lock'), 'utf8').trim()).toBe(String(first.child.pid));

    const next = await serve(['--port', '0', '--data-dir', dataDir]);
    const found = await fetch(`${next.baseUrl}/apps/${data.id}`, { headers: { 'x-api-key': ACME_KEY } });
    expect(found.status).toBe(200);
    const user = await fetch(`${next.baseUrl}/users?search=before-sigint`, { headers: { 'x-api-key': ACME_KEY } });
    expect(((await user.json()) as { total: number }).total).toBe(1);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});

describe('svc serve with other flags', () => {
  it.concurrent.for([
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535, got "abc"/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535, got "70000"/],
    [['--log-format', 'xml'], /--log-format must be pretty or json, got "xml"/],
    [['--clock-speed', '0'], /--clock-speed must be a positive number, got "0"/],
    [['--cors', 'localhost:5173'], /--cors "localhost:5173" is not an origin such as http:\/\/localhost:5173/],
    [['--cors', 'http://a.test,http://b.test/app'], /--cors "http:\/\/b.test\/app" is not an origin/],
    [['--allowed-hosts', 'svc.internal:8080'], /--allowed-hosts "svc.internal:8080" is not a host name or address .*no port/],
    [['--allowed-hosts', 'svc.internal,http://b.test'], /--allowed-hosts "http:\/\/b.test" is not a host name/],
    [['--public-url', 'svc.example.test'], /--public-url "svc.example.test" does not start with http:\/\/ or https:\/\//],
    [['--public-url', 'https://svc.example.test/v1'], /--public-url "https:\/\/svc.example.test\/v1" ends in \/v1, which svc adds/],
  ] as const)('refuses %j with one line naming the flag', async ([args, message], { expect }) => {
    const dataDir = join(work, `never-flag-${args.join('-')}`);
    const result = await runToExit(['serve', '--data-dir', dataDir, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('--allowed-hosts (and SVC_ALLOWED_HOSTS) adds names to the Host check; all answers any and warns at start', async () => {
    const status = (port: string, host: string) =>
      new Promise<number>((resolve, reject) =>
        httpGet({ host: '127.0.0.1', port, path: '/healthz', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject),
      );
    const portOf = (served: Served) => new URL(served.baseUrl).port;
    const listed = await serve(['--port', '0', '--in-memory', '--allowed-hosts', 'svc.internal']);
    const fromEnv = await serve(['--port', '0', '--in-memory'], { SVC_ALLOWED_HOSTS: '.example.test' });
    const all = await serve(['--port', '0', '--in-memory', '--allowed-hosts', 'all']);
    try {
      expect([await status(portOf(listed), 'svc.internal:4010'), await status(portOf(listed), 'evil.example')]).toEqual([200, 403]);
      expect([await status(portOf(fromEnv), 'api.example.test'), await status(portOf(fromEnv), 'svc.internal')]).toEqual([200, 403]);
      expect(await status(portOf(all), 'evil.example')).toBe(200);
      expect(all.stdout() + all.stderr()).toMatch(/--allowed-hosts all: svc answers any Host name/);
      expect(listed.stdout() + listed.stderr()).not.toMatch(/--allowed-hosts all/);
    } finally {
      for (const served of [listed, fromEnv, all]) served.child.kill('SIGINT');
      await Promise.all([listed.exited, fromEnv.exited, all.exited]);
    }
  });

  it('refuses a bad SVC_PUBLIC_URL with one line naming it', async () => {
    const dataDir = join(work, 'never-public-url-env');
    const result = await runToExit(['serve', '--port', '0', '--data-dir', dataDir], { SVC_PUBLIC_URL: 'ftp://svc.example.test' });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /SVC_PUBLIC_URL "ftp:\/\/svc.example.test" is not an http\(s\) URL/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('--public-url (and SVC_PUBLIC_URL) is the address printed and the OpenAPI servers; where it listens is printed beside it', async () => {
    const told = await serve(['--port', '0', '--in-memory', '--public-url', 'https://svc.example.test/team/']);
    const fromEnv = await serve(['--port', '0', '--in-memory'], { SVC_PUBLIC_URL: 'http://127.0.0.1:8080' });
    try {
      expect(told.baseUrl).toBe('https://svc.example.test/team/v1');
      expect(told.dashboardUrl).toBe('https://svc.example.test/team/_emulator/ui');
      expect(told.stdout()).toContain('export SVC_URL=https://svc.example.test/team/v1');
      const listening = /^ {2}Listening +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(told.stdout())?.[1];
      expect(listening, told.stdout()).toBeDefined();
      const doc = (await (await fetch(`${listening}/v1/openapi.json`, { headers: { host: 'localhost' } })).json()) as { servers: Array<{ url: string }> };
      expect(doc.servers.map((server) => server.url)).toEqual(['https://svc.example.test/team']);
      expect(fromEnv.baseUrl).toBe('http://127.0.0.1:8080/v1');
    } finally {
      for (const served of [told, fromEnv]) served.child.kill('SIGINT');
      await Promise.all([told.exited, fromEnv.exited]);
    }
  });

  it('--in-memory serves the seeded data and writes no data dir', async () => {
    const dataDir = join(work, 'in-memory-never-written');
    const svc = await serve(['--port', '0', '--in-memory', '--data-dir', dataDir]);
    expect(svc.stdout()).toMatch(/Data +\(in memory\)/);
    const res = await fetch(`${svc.baseUrl}/apps`, {
      method: 'POST',
      headers: { 'x-api-key': svc.keys[1]!.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ephemeral' }),
    });
    expect(res.status).toBe(201);
    svc.child.kill('SIGINT');
    expect(await svc.exited).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('svc serve --seed with a bad fixture', () => {
  const good = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'default.json'), 'utf8')) as {
    tenants: Array<{ apiKeys: Array<{ key: string }>; users: Array<{ email: string | null }> }>;
  };
  const withBadKey = structuredClone(good);
  withBadKey.tenants[1]!.apiKeys[0]!.key = 'sk_live_nope';
  const withRepeatedEmail = structuredClone(good);
  withRepeatedEmail.tenants[0]!.users[3]!.email = withRepeatedEmail.tenants[0]!.users[1]!.email!.toUpperCase();

  // Each case is its own short-lived process; they run side by side.
  it.concurrent.for([
    ['a file that does not exist', null, /cannot read the fixture/],
    ['a file that is not JSON', '{"tenants": [', /is not valid JSON/],
    ['a fixture with no tenants', JSON.stringify({ tenants: [] }), /tenants: a fixture needs at least one tenant/],
    ['a malformed API key', JSON.stringify(withBadKey), /tenants\.1\.apiKeys\.0\.key: sk_test_ followed by 32/],
    ['an email twice in a tenant', JSON.stringify(withRepeatedEmail), /tenants\.0\.users\.3\.email: the email \S+ repeats tenants\.0\.users\.1\.email/],
  ] as const)('refuses %s with the path and the reason, and writes nothing', async ([label, content, reason], { expect }) => {
    const slug = label.replace(/\W+/g, '-');
    const seedPath = join(work, `${slug}.json`);
    if (content !== null) writeFileSync(seedPath, content);
    const dataDir = join(work, `never-${slug}`);
    const result = await runToExit(['serve', '--port', '0', '--data-dir', dataDir, '--seed', seedPath]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(seedPath);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toContain('ready');
    expect(existsSync(dataDir)).toBe(false);
  });
});
