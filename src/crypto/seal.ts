/** Encryption at rest for key shares: AES-256-GCM under the data dir's own key. */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LegacySealed, Sealed } from '../store/records.js';
import { randomBytes } from '../entropy.js';
import { DATA_FILE_MODE, SEAL_KEY_FILE } from '../store/data-dir.js';

export { SEAL_KEY_FILE };

export class Sealer {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the seal key must be 32 bytes');
    this.#key = key;
  }

  /** The data dir's key, made on first use (mode 0600); a fresh random key in memory when no dir. */
  static forDataDir(dataDir: string | null): Sealer {
    if (dataDir === null) return new Sealer(randomBytes(32));
    const path = join(dataDir, SEAL_KEY_FILE);
    try {
      return new Sealer(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const key = randomBytes(32);
      writeFileSync(path, `${key.toString('base64')}\n`, { mode: DATA_FILE_MODE, flag: 'wx' });
      return new Sealer(key);
    }
  }

  seal(plain: Uint8Array): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    return `${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
  }

  open(sealed: Sealed | LegacySealed): Buffer {
    const [iv, tag, data] =
      typeof sealed === 'string'
        ? sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
        : [sealed.iv, sealed.tag, sealed.data].map((part) => Buffer.from(part, 'base64'));
    if (!iv || !tag || !data) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  }
}
