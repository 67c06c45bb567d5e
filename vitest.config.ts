import { defineConfig } from 'vitest/config';

/**
 * Files that load the whole machine on purpose (busy loops, a database stopped and killed, npm
 * installing a package, a browser) or hold a run to its timing: they run one at a time, after
 * the rest, in one worker that keeps the modules it loaded (isolate: false; 186 s instead of
 * 198 s). Everything else runs two files at once, even on a two-core machine: most of a file's
 * time is spent waiting on a server it started, not computing.
 */
const ALONE = [
  'test/conformance-load.test.ts',
  'test/conformance-concurrency.test.ts',
  'test/postgres-faults.test.ts',
  'test/postgres-processes.test.ts',
  'test/postgres-balancer.test.ts',
  'test/packaging.test.ts',
  'test/example-project.test.ts',
  'test/container.test.ts',
  'test/crash.test.ts',
  'test/browser/**/*.test.ts',
];

/**
 * Files that replace a module for themselves (vi.mock): they need a module graph of their own,
 * so each runs in a fresh process. Every other file shares its worker's loaded modules
 * (isolate: false): it starts in a worker that has the app, zod and hono loaded already,
 * instead of loading them again. Measured on two cores: the files that run two at once took
 * 200 s isolated and 115-118 s sharing (vitest's "import" 64 s and 10 s).
 * test/vitest-config.test.ts fails when a file that calls vi.mock is not in this list.
 */
export const OWN_MODULES = ['test/secrets.test.ts', 'test/store-failures.test.ts'];

const shared = { testTimeout: 20_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'together',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...ALONE, ...OWN_MODULES],
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The same two workers as 'together' (one group), each of these files in a fresh process.
        test: { ...shared, name: 'own-modules', include: OWN_MODULES, isolate: true, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        test: { ...shared, name: 'alone', include: ALONE, isolate: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
