/**
 * The data dir lock (D12) on real files and real processes: a live holder is refused with its
 * pid, a dead holder's (or a torn) lock is taken over at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestEmulator, tempDataDir } from '../test-support/harness.js';
import { DataDirLockedError, LOCK_FILE, acquireLock } from './lock.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
function freshDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process that stays alive until the suite ends. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid!;
  await new Promise((resolve) => child.once('exit', resolve));
  return pid;
}

function lockPid(dir: string): string {
  return readFileSync(join(dir, LOCK_FILE), 'utf8').trim();
}

describe('acquireLock', () => {
  it('writes our pid, refuses a second taker in this process with the pid, and frees the dir on release', () => {
    const dir = freshDir();
    const release = acquireLock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    let error: unknown;
    try {
      acquireLock(dir);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).pid).toBe(process.pid);
    expect((error as Error).message).toContain(`pid ${process.pid}`);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/--data-dir/);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    release();
    acquireLock(dir)();
  });

  it('refuses a lock whose holder is another live process, naming its pid, and leaves the lock alone', () => {
    const dir = freshDir();
    const pid = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), `${pid}\n`);
    expect(() => acquireLock(dir)).toThrow(new RegExp(`another svc server \\(pid ${pid}\\)`));
    expect(lockPid(dir)).toBe(String(pid));
  });

  it.each([
    ['a dead process', async () => `${await deadPid()}\n`],
    ['a torn file', async () => 'garb'],
    ['an empty file', async () => ''],
    ['a negative pid', async () => '-5\n'],
    ['our own pid left over by a store no longer open', async () => `${process.pid}\n`],
  ])('takes over a lock left by %s at once', async (_label, content) => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), await content());
    const release = acquireLock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    release();
  });

  it('release() leaves alone a lock that someone else now holds', () => {
    const dir = freshDir();
    const release = acquireLock(dir);
    const other = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), `${other}\n`);
    release();
    expect(lockPid(dir)).toBe(String(other));
  });
});

describe('the lock around a running emulator', () => {
  it("refuses a second emulator on the same dir with the first one's pid; the first keeps serving", async () => {
    const dir = freshDir();
    const first = await startTestEmulator({ dataDir: dir });
    try {
      await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(new RegExp(`pid ${process.pid}\\b`));
      expect((await first.request('GET', '/apps')).status).toBe(200);
      expect((await first.request('POST', '/apps', { body: { name: 'still mine' } })).status).toBe(201);
    } finally {
      await first.stop();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const next = await startTestEmulator({ dataDir: dir });
    expect((await next.request('GET', '/apps?search=still')).body.total).toBe(1);
    await next.stop();
  });

  it('starts over a stale lock left by a crashed server and keeps its data', async () => {
    const dir = freshDir();
    const crashed = await startTestEmulator({ dataDir: dir });
    const created = await crashed.request('POST', '/apps', { body: { name: 'before the crash' } });
    await crashed.stop();
    writeFileSync(join(dir, LOCK_FILE), `${await deadPid()}\n`);
    const next = await startTestEmulator({ dataDir: dir });
    try {
      expect(lockPid(dir)).toBe(String(process.pid));
      expect((await next.request('GET', `/apps/${created.body.data.id}`)).status).toBe(200);
    } finally {
      await next.stop();
    }
  });

  it('refuses to start while another live process holds the lock', async () => {
    const dir = freshDir();
    const pid = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), `${pid}\n`);
    await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
  });
});
