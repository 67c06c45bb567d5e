/**
 * docs/postgres.md's balancer recipe, as written: its nginx file (cut out of the page, only the
 * ports changed to free ones) in front of three `svc serve` processes on one PostgreSQL, all
 * real. Each tenant's requests reach one process; when that process dies, its tenant's next
 * write goes to another, once. nginx comes from Debian's packages (`apt-get install nginx`);
 * without it the test skips, unless REQUIRE_NGINX=1 (as .ci/run sets).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, GLOBEX_KEY } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/ports.js';
import { postgresAvailability, startPostgres, type TestPostgres } from '../src/test-support/postgres.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
if (NGINX === undefined && process.env['REQUIRE_NGINX'] === '1') throw new Error('REQUIRE_NGINX=1 but nginx is not installed: apt-get install -y nginx');
const postgres = postgresAvailability();
if (NGINX === undefined) console.warn('skipping the balancer recipe of docs/postgres.md: nginx is not installed (apt-get install -y nginx)');

/** The nginx file of docs/postgres.md, its ports replaced. */
function recipe(ports: number[], listen: number): string {
  const page = readFileSync(new URL('../docs/postgres.md', import.meta.url), 'utf8');
  const file = /```nginx\n([^]*?)```/.exec(page)?.[1];
  if (file === undefined) throw new Error('docs/postgres.md has no ```nginx block');
  for (const port of ['4000', '4010', '4011', '4012']) expect(file).toContain(`127.0.0.1:${port}`);
  return ports
    .reduce((text, port, index) => text.replace(`127.0.0.1:${4010 + index}`, `127.0.0.1:${port}`), file)
    .replace('127.0.0.1:4000', `127.0.0.1:${listen}`);
}

async function post(origin: string, key: string, body: unknown): Promise<{ status: number; body: { data: { id: string } } }> {
  const response = await fetch(`${origin}/v1/users`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: { id: string } } };
}

/** The tenants whose POST /v1/users `process` journaled, with how many each. */
async function postsSeenBy(process: ServeProcess): Promise<Record<string, number>> {
  const response = await fetch(`${process.origin}/_emulator/requests?method=POST&path=/v1/users`);
  const { data } = (await response.json()) as { data: Array<{ tenantId: string | null }> };
  const counts: Record<string, number> = {};
  for (const entry of data) counts[entry.tenantId ?? 'none'] = (counts[entry.tenantId ?? 'none'] ?? 0) + 1;
  return counts;
}

describe.skipIf(!postgres.available || NGINX === undefined)('docs/postgres.md: three processes behind nginx routing by API key', () => {
  let server: TestPostgres;
  let processes: ServeProcess[] = [];
  let dir: string;
  let origin: string;
  const nginx = (...args: string[]): void =>
    void execFileSync(NGINX!, ['-p', dir, '-e', 'svc-lb.error.log', '-c', join(dir, 'svc-lb.conf'), ...args], { stdio: 'pipe' });

  beforeAll(async () => {
    await ensureBuilt();
    server = await startPostgres();
    const url = await server.database();
    processes = await Promise.all([0, 1, 2].map(() => startServeProcess(['--store', url], undefined, 30_000)));
    dir = mkdtempSync(join(tmpdir(), 'svc-nginx-'));
    const listen = await freePort();
    writeFileSync(
      join(dir, 'svc-lb.conf'),
      recipe(
        processes.map((process) => Number(new URL(process.origin).port)),
        listen,
      ),
    );
    nginx();
    origin = `http://127.0.0.1:${listen}`;
  }, 90_000);

  afterAll(async () => {
    if (dir !== undefined && existsSync(join(dir, 'svc-lb.pid'))) nginx('-s', 'stop');
    for (const process of processes) process.child.kill('SIGKILL');
    await Promise.all(processes.map((process) => process.exited));
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("sends each tenant's writes to one process, and a dead process's tenant to another, each write once", async () => {
    const made: Record<string, string[]> = { [ACME_KEY]: [], [GLOBEX_KEY]: [] };
    for (let i = 0; i < 6; i++) {
      for (const key of [ACME_KEY, GLOBEX_KEY]) {
        const answer = await post(origin, key, { email: `balanced.${i}.${key.slice(8, 12)}@lb.test` });
        expect(answer.status).toBe(201);
        made[key]!.push(answer.body.data.id);
      }
    }
    const seen = await Promise.all(processes.map(postsSeenBy));
    for (const tenant of ['ten_acme0000000000000001', 'ten_globex00000000000001']) {
      const holders = seen.filter((counts) => counts[tenant] !== undefined);
      expect(holders.map((counts) => counts[tenant])).toEqual([6]);
    }
    // An answer larger than nginx's buffers passes whole (the file keeps answers in memory).
    const document = await fetch(`${origin}/v1/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);

    // The process that holds Acme dies: Acme's next writes go to another, and each is made once.
    const acmeHolder = seen.findIndex((counts) => counts['ten_acme0000000000000001'] !== undefined);
    processes[acmeHolder]!.child.kill('SIGKILL');
    await processes[acmeHolder]!.exited;
    for (let i = 0; i < 3; i++) {
      const answer = await post(origin, ACME_KEY, { email: `after.${i}@lb.test` });
      expect(answer.status).toBe(201);
      made[ACME_KEY]!.push(answer.body.data.id);
    }
    const alive = processes.filter((_, index) => index !== acmeHolder);
    const after = await Promise.all(alive.map(postsSeenBy));
    expect(after.reduce((sum, counts) => sum + (counts['ten_acme0000000000000001'] ?? 0), 0)).toBe(3);
    const listed = await fetch(`${alive[0]!.origin}/v1/users?search=lb.test&page_size=100`, { headers: { 'x-api-key': ACME_KEY } });
    const ids = ((await listed.json()) as { data: Array<{ id: string }> }).data.map((user) => user.id);
    expect(ids.sort()).toEqual([...made[ACME_KEY]!].sort());
  }, 60_000);
});
