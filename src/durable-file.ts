/**
 * A small file of the data dir written so that no crash leaves it torn: a temp file beside it
 * (mode 0600: only the owner reads the data dir's files, docs/testing-with-svc.md#secrets; the
 * rename keeps the mode), fsync, rename over the old one, fsync of the directory.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeFileDurably(path: string, text: string): void {
  const temp = `${path}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  fchmodSync(fd, 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
