import { defineConfig } from 'vitest/config';

/**
 * Files that load the whole machine on purpose (busy loops, a database stopped and killed, npm
 * installing a package, a browser) or hold a run to its timing: they run one at a time, after
 * the rest. Everything else runs two files at once, even on a two-core machine: most of a file's
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

const shared = { testTimeout: 20_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'together',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ALONE,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: { ...shared, name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
