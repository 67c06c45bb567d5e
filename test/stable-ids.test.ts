/**
 * Stable ids (docs/serve.md#stable-ids): two fresh `svc serve` processes, each on its own temp
 * data dir, seed the same ids, and a reset keeps them. A fixture that names no ids gets ids
 * derived from `--id-seed`; `--id-seed random` gives random ones; secrets never follow the seed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, GLOBEX_KEY, sendRequest, startTestEmulator, tempDataDir } from '../src/test-support/harness.js';
import { ensureBuilt, ROOT, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const FIXTURE = JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'fixtures', 'default.json'), 'utf8')) as {
  tenants: Array<{ id?: string; apiKeys: Array<{ id?: string }>; apps: Array<{ id?: string }>; users: Array<{ id?: string }> }>;
};

/** The default fixture with every id taken out, so every id is derived from the seed. */
function fixtureWithoutIds(): string {
  const path = join(tempDataDir(), 'no-ids.json');
  const tenants = FIXTURE.tenants.map(({ id: _tenant, ...tenant }) => ({
    ...tenant,
    apiKeys: tenant.apiKeys.map(({ id: _id, ...key }) => key),
    apps: tenant.apps.map(({ id: _id, ...app }) => app),
    users: tenant.users.map(({ id: _id, ...user }) => user),
  }));
  writeFileSync(path, JSON.stringify({ tenants }));
  return path;
}

/** The ids every listing of both tenants answers, in order; with the wallets' through the users. */
async function ids(origin: string): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = {};
  for (const [tenant, key] of [
    ['acme', ACME_KEY],
    ['globex', GLOBEX_KEY],
  ] as const) {
    seen[`${tenant} tenant`] = [(await sendRequest(`${origin}/v1/tenant`, 'GET', { key })).body.data.id];
    for (const path of ['/users?page_size=100', '/apps?page_size=100', '/api-keys']) {
      const answer = await sendRequest<{ data: Array<{ id: string }> }>(`${origin}/v1${path}`, 'GET', { key });
      expect(answer.status).toBe(200);
      seen[`${tenant} ${path}`] = answer.body.data.map((record) => record.id);
    }
  }
  return seen;
}

describe('stable ids across fresh starts', () => {
  const started: ServeProcess[] = [];
  beforeAll(async () => {
    await ensureBuilt();
    started.push(...(await Promise.all([0, 1].map(() => startServeProcess(['--data-dir', tempDataDir()])))));
  }, 300_000);
  afterAll(async () => {
    for (const process of started) {
      process.child.kill('SIGTERM');
      await process.exited;
    }
  });

  it('two fresh svc serve processes list the same ids, the fixture names; a reset keeps them', async () => {
    const [a, b] = started as [ServeProcess, ServeProcess];
    const first = await ids(a.origin);
    expect(await ids(b.origin)).toEqual(first);
    expect(first['acme /users?page_size=100']).toHaveLength(50);
    expect(first['acme /users?page_size=100']).toContain('usr_acme0000000000000001');
    expect(first['globex /apps?page_size=100']).toEqual(expect.arrayContaining(['app_globex00000000000001', 'app_globex00000000000002']));
    expect(first['acme /api-keys']).toEqual(['key_acme0000000000000001']);

    await sendRequest(`${a.origin}/v1/users`, 'POST', { key: ACME_KEY, body: { email: 'later@acme.test', name: 'Later' } });
    expect((await sendRequest(`${a.origin}/_emulator/reset`, 'POST')).status).toBe(200);
    expect(await ids(a.origin)).toEqual(first);
  });

  it("seeded tenants' passkey origin is the emulator's own port", async () => {
    const [a] = started as [ServeProcess];
    const tenant = (await sendRequest(`${a.origin}/v1/tenant`, 'GET', { key: ACME_KEY })).body.data;
    const port = new URL(a.origin).port;
    expect(port).not.toBe('4010');
    expect(tenant.settings.webauthn.origins).toEqual([`http://localhost:${port}`]);
  });
});

describe('ids derived from --id-seed', () => {
  it('derives the same ids from the same seed, others from another, random ones from "random"; never the secrets', async () => {
    const seedFile = fixtureWithoutIds();
    const run = async (idSeed?: string) => {
      const svc = await startTestEmulator({ seedFile, ...(idSeed === undefined ? {} : { idSeed }) });
      try {
        const seen = await ids(svc.origin);
        const wallets = [...svc.emulator.rt.store.all('wallets')].map((wallet) => ({ id: wallet.id, publicKey: wallet.publicKey, userId: wallet.userId }));
        return { seen, wallets };
      } finally {
        await svc.close();
      }
    };
    const [one, two, other, random] = [await run(), await run(), await run('another'), await run('random')];
    expect(two.seen).toEqual(one.seen);
    expect(two.wallets.map((w) => [w.id, w.userId])).toEqual(one.wallets.map((w) => [w.id, w.userId]));
    // Each id keeps its prefix and base62 body.
    for (const [list, prefix] of [
      ['acme tenant', 'ten'],
      ['acme /users?page_size=100', 'usr'],
      ['acme /apps?page_size=100', 'app'],
      ['acme /api-keys', 'key'],
    ] as const) {
      for (const id of one.seen[list]!) expect(id).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{20}$`));
    }
    // The wallets' keys are drawn afresh each time: nothing secret follows the seed.
    expect(two.wallets.map((w) => w.publicKey)).not.toEqual(expect.arrayContaining([one.wallets[0]!.publicKey]));
    for (const differs of [other, random]) {
      expect(differs.seen['acme tenant']).not.toEqual(one.seen['acme tenant']);
      expect(differs.seen['acme /users?page_size=100']!.filter((id) => one.seen['acme /users?page_size=100']!.includes(id))).toEqual([]);
    }
    expect((await run('random')).seen['acme tenant']).not.toEqual(random.seen['acme tenant']);
  });
});
