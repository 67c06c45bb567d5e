import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from './seal.js';

describe('Sealer', () => {
  const key = randomBytes(32);
  const sealer = new Sealer(key);

  it('seals to one string that only the same key opens, and tampering is refused', () => {
    const sealed = sealer.seal(Buffer.from('share bytes'));
    expect(sealed).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealer.open(sealed).toString()).toBe('share bytes');
    expect(() => new Sealer(randomBytes(32)).open(sealed)).toThrow();
    const [iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped.writeUInt8(flipped.readUInt8(0) ^ 1, 0);
    expect(() => sealer.open(`${iv}.${tag}.${flipped.toString('base64url')}`)).toThrow();
    expect(() => sealer.open('not-sealed')).toThrow();
  });

  it('still opens the object form that earlier data dirs hold', () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update('legacy'), cipher.final()]);
    const legacy = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    expect(sealer.open(legacy).toString()).toBe('legacy');
  });
});
