/**
 * Where the package's own files are (package.json, fixtures/), found by walking up from this
 * module: the same answer from dist/*.js, from the bundle in dist/bundle/ (any chunk), and
 * from src/ under the test runner.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export function packageFile(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
