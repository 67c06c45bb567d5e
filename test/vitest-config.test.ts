/**
 * The run's own layout (vitest.config.ts): test files share their worker's loaded modules,
 * where a file's vi.mock would replace nothing once an earlier file has loaded the module, and
 * its tests would test the real one. So every file that calls vi.mock is one of OWN_MODULES,
 * which run each in a fresh process, and the list names no file that does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect, it } from 'vitest';
import { OWN_MODULES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

it('runs every file that calls vi.mock in a process of its own, and only those', () => {
  const mocking = ['src', 'test']
    .flatMap((dir) => testFiles(join(ROOT, dir)))
    .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file).split(sep).join('/'))
    .sort();
  expect(mocking.length).toBeGreaterThan(0);
  expect(mocking).toEqual([...OWN_MODULES].sort());
});
