/**
 * One live server per data dir (D12). The lock file holds the owner's pid; a lock whose
 * process is gone is taken over at once, so a crash never blocks the next start.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'svc.lock';

/** Lock files this process holds, so a second store in the same process is refused too. */
const HELD = new Set<string>();

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`another svc server (pid ${pid}) is using the data dir ${dataDir}; stop it, or start this one with another --data-dir`);
    this.name = 'DataDirLockedError';
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLockPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the data dir's lock or throws DataDirLockedError. Returns the release function. */
export function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Only the owner reads the data dir's files (store/data-dir.ts); data-dir.ts names this file, so the mode is written here.
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      HELD.add(path);
      return () => {
        if (!HELD.delete(path)) return;
        if (readLockPid(path) === process.pid) unlinkSync(path);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = readLockPid(path);
      const ownedHere = pid === process.pid && HELD.has(path);
      if (pid !== undefined && (ownedHere || (pid !== process.pid && processIsAlive(pid)))) {
        throw new DataDirLockedError(dataDir, pid);
      }
      // A stale lock (its process is gone, or the file is torn): take it over.
      try {
        unlinkSync(path);
      } catch {
        /* another starter removed it first; try again */
      }
    }
  }
  throw new Error(`could not take the lock ${path}`);
}
