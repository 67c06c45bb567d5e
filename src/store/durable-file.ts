/**
 * A lowdb adapter that writes durably: serialise, write a temp file, fsync it, rename it
 * over the data file, fsync the directory. A crash leaves either the old file or the new
 * one, never a torn one (D12). lowdb's own JSONFile renames but never fsyncs.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export class DurableJsonFile<T> implements Adapter<T> {
  readonly #path: string;
  readonly #tempPath: string;

  constructor(path: string) {
    this.#path = path;
    this.#tempPath = join(dirname(path), `.${basename(path)}.tmp`);
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const value = JSON.parse(text) as T | null;
    // null is how lowdb says "no file yet"; a file holding null must be refused, not seeded over.
    if (value === null) throw new Error('it holds null, not a JSON object');
    return value;
  }

  async write(data: T): Promise<void> {
    const text = JSON.stringify(data);
    const file = await open(this.#tempPath, 'w');
    try {
      await file.writeFile(text, 'utf8');
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(this.#tempPath, this.#path);
    await syncDirectory(dirname(this.#path));
  }
}

/** Makes a rename durable: fsync the directory that holds the entry. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}
