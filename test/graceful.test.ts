/**
 * Stopping and refusing cleanly (DESIGN D12): SIGTERM lets a request already in flight
 * finish and be answered, refuses new connections, flushes the store into db.json, releases the
 * lock and exits 0; a busy port is one line suggesting --port, before the data dir is touched.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY } from '../src/test-support/harness.js';
import { ensureBuilt, ROOT, startServeProcess } from '../src/test-support/serve-process.js';

const work = mkdtempSync(join(tmpdir(), 'svc-graceful-'));
beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('svc serve on SIGTERM', () => {
  it('answers the slow request in flight, refuses new ones, flushes the store, and exits 0', async () => {
    const dataDir = join(work, 'drain');
    const svc = await startServeProcess(['--data-dir', dataDir]);
    try {
      // The next POST /apps waits 1.5 s (real time) before it is handled: a slow request.
      const fault = await fetch(`${svc.origin}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'POST', path: '/apps', delay: '1500ms', count: 1 }),
      });
      expect(fault.status).toBe(201);
      const started = Date.now();
      const inFlight = fetch(`${svc.baseUrl}/apps`, {
        method: 'POST',
        headers: { 'x-api-key': ACME_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Answered while stopping' }),
      });
      // In flight once the server has taken the fault (it leaves the list), not after a time
      // guessed to be enough: on a loaded machine the request may not have arrived yet.
      const faults = async () => ((await (await fetch(`${svc.origin}/_emulator/faults`)).json()) as { data: unknown[] }).data;
      await expect.poll(faults, { timeout: 10_000 }).toEqual([]);
      const stopAt = Date.now();
      svc.child.kill('SIGTERM');
      // The server closes its listener right after it logs this line, in the same turn.
      await expect.poll(() => svc.stdout(), { timeout: 10_000 }).toMatch(/SIGTERM: stopping/);
      // Stopping: the listener is closed, so a new connection is refused.
      await expect(fetch(`${svc.baseUrl}/healthz`)).rejects.toThrow();

      const res = await inFlight;
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { id: string } };
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      const exit = await svc.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      // It stops once the last answer is out, not after the 5 s grace for stuck requests: that
      // grace, counted from the signal, cannot end sooner than 5 s after it was sent.
      expect(Date.now() - stopAt).toBeLessThan(5_000);
      expect(svc.stdout()).toMatch(/SIGTERM: stopping/);
      expect(svc.stderr()).toBe('');
      const snapshot = JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8')) as { apps: Array<{ id: string }> };
      expect(snapshot.apps.map((app) => app.id)).toContain(data.id);
      expect(existsSync(join(dataDir, 'svc.lock'))).toBe(false);
    } finally {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
    }
  });
});

describe('svc serve on a busy port', () => {
  it('says so in one line suggesting --port, exits non-zero, and never creates the data dir', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = join(work, 'never-created');
    try {
      const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(ROOT, 'bin', 'svc.js'), 'serve', '--port', String(port), '--data-dir', dataDir],
          { env: { ...process.env, NO_COLOR: '1' } },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
        );
      });
      expect(result.code).not.toBe(0);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`port ${port} .*in use.*--port`));
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });
});
