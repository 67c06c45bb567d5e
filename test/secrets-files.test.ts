/**
 * What svc writes is for its owner alone (docs/testing-with-svc.md#secrets): the data dir is
 * 0700 and every file svc writes in it 0600, after writes, a clock change and a compaction; an
 * older data dir with open modes is tightened, a dir of the user's keeps its mode; the files of
 * `svc export` and `svc exec` are 0600, and an export holds its keys only with --include-secrets.
 * The umask is set to the usual 022 so that only svc's own modes can keep the files closed.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../src/store/file-store.js';
import { runCli } from '../src/test-support/cli.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { ensureBuilt } from '../src/test-support/serve-process.js';
import { asUser, claimWallet, signIn } from '../src/test-support/signed-in.js';

const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'default.json'), 'utf8')) as {
  tenants: Array<{ settings: { telegram: { botToken: string } }; webhooks?: Array<{ secret: string }> }>;
};
const BOT_TOKENS = FIXTURE.tenants.map((tenant) => tenant.settings.telegram.botToken);
/** The signing secret of the fixture's webhook (Acme's): an export holds it only with --include-secrets. */
const FIXTURE_WEBHOOK_SECRET = FIXTURE.tenants[0]!.webhooks![0]!.secret;

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** The mode of the dir and of each file in it, by name. */
function modes(dir: string): Record<string, string> {
  return Object.fromEntries([['.', modeOf(dir)], ...readdirSync(dir).map((name) => [name, modeOf(join(dir, name))])]);
}

function allPrivate(dir: string): Record<string, string> {
  return Object.fromEntries(Object.keys(modes(dir)).map((name) => [name, name === '.' ? '700' : '600']));
}

let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

async function someWrites(svc: TestEmulator): Promise<void> {
  expect((await svc.request('POST', '/users', { body: { email: `files.${Date.now()}@example.com` } })).status).toBe(201);
  expect((await svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['user.created'] } })).status).toBe(201);
  const who = await signIn(svc);
  await claimWallet(svc, who);
  expect((await asUser(svc, who)('POST', '/mfa/setup', {})).status).toBe(200);
}

describe('the data dir', () => {
  it('is made 0700, and every file svc writes in it is 0600, after writes, a clock change, a compaction and a stop', async () => {
    const dir = join(tempDataDir(), 'made', 'by-svc');
    const svc = await startTestEmulator({ dataDir: dir });
    try {
      await someWrites(svc);
      expect((await svc.request('POST', '/_emulator/clock', { body: { now: '2030-01-01T00:00:00.000Z' } })).status).toBe(200);
      await (svc.emulator.rt.store as FileStore).compact();
      await someWrites(svc);
      const names = Object.keys(modes(dir));
      for (const name of ['db.json', 'db.journal', 'clock.json', 'seal.key', 'svc.lock']) expect(names).toContain(name);
      expect(modes(dir)).toEqual(allPrivate(dir));
      await svc.stop();
      expect(modes(dir)).toEqual(allPrivate(dir));
    } finally {
      await svc.stop();
    }
  });

  it('made 0644 by an older svc, is tightened at the next start; a dir of the user with other files keeps its mode', async () => {
    const old = join(tempDataDir(), 'older');
    const first = await startTestEmulator({ dataDir: old });
    await someWrites(first);
    await first.stop();
    chmodSync(old, 0o755);
    for (const name of readdirSync(old)) chmodSync(join(old, name), 0o644);
    writeFileSync(join(old, '.db.json.tmp'), '{}', { mode: 0o644 });
    const again = await startTestEmulator({ dataDir: old });
    try {
      await someWrites(again);
      await (again.emulator.rt.store as FileStore).compact();
      expect(modes(old)).toEqual(allPrivate(old));
    } finally {
      await again.stop();
    }

    const mine = join(tempDataDir(), 'mine');
    mkdirSync(mine, { mode: 0o755 });
    writeFileSync(join(mine, 'notes.txt'), 'mine', { mode: 0o644 });
    const svc = await startTestEmulator({ dataDir: mine });
    try {
      await someWrites(svc);
      const { '.': dirMode, 'notes.txt': notes, ...svcFiles } = modes(mine);
      expect({ dirMode, notes }).toEqual({ dirMode: '755', notes: '644' });
      expect(Object.values(svcFiles).length).toBeGreaterThan(3);
      expect(new Set(Object.values(svcFiles))).toEqual(new Set(['600']));
    } finally {
      await svc.stop();
    }
  });
});

describe('svc export and svc exec', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    await ensureBuilt();
    svc = await startTestEmulator();
  }, 180_000);
  afterAll(() => svc.close());

  it('svc export writes 0600, a file that was there before too, and holds the keys, bot tokens and webhook secrets only with --include-secrets', async () => {
    const dir = tempDataDir();
    const hidden = join(dir, 'hidden.json');
    const whole = join(dir, 'whole.json');
    writeFileSync(whole, 'old', { mode: 0o644 });
    const url = ['--url', svc.origin];
    const plain = await runCli(['export', ...url, '--out', hidden]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('--include-secrets');
    const included = await runCli(['export', ...url, '--out', whole, '--include-secrets']);
    expect(included.code, included.stderr).toBe(0);
    expect([modeOf(hidden), modeOf(whole)]).toEqual(['600', '600']);
    const secrets = [ACME_KEY, GLOBEX_KEY, ...BOT_TOKENS, FIXTURE_WEBHOOK_SECRET];
    const hiddenText = readFileSync(hidden, 'utf8');
    const wholeText = readFileSync(whole, 'utf8');
    for (const value of secrets) {
      expect(hiddenText.includes(value), `${value.slice(0, 12)}… without --include-secrets`).toBe(false);
      expect(wholeText.includes(value), `${value.slice(0, 12)}… with --include-secrets`).toBe(true);
    }
    expect(hiddenText).toContain('[redacted]');
    const help = await runCli(['export', '--help']);
    expect(help.stdout).toMatch(/--include-secrets\s+write API keys, bot tokens, webhook secrets in clear/);
  });

  it("svc exec's artefacts and its export are 0600, and the artefacts hold no key or bot token", async () => {
    const dir = tempDataDir();
    const artifacts = join(dir, 'artifacts');
    const state = join(dir, 'state.json');
    const result = await runCli(['exec', '--artifacts', artifacts, '--export-on-exit', state, '--', process.execPath, '-e', 'process.exit(3)'], {
      timeoutMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(modes(artifacts)).toEqual({ '.': '700', 'emulator.log': '600', 'requests.json': '600', 'store.json': '600', 'fixture.json': '600' });
    expect(modeOf(state)).toBe('600');
    const kept = readdirSync(artifacts)
      .map((name) => readFileSync(join(artifacts, name), 'utf8'))
      .join('\n');
    for (const value of [ACME_KEY, GLOBEX_KEY, ...BOT_TOKENS]) expect(kept.includes(value), `${value.slice(0, 12)}… in the artefacts`).toBe(false);
    // --export-on-exit is for --seed to take back: it keeps its keys.
    expect(readFileSync(state, 'utf8')).toContain(ACME_KEY);
  }, 40_000);
});
