// One emulator for the run (or the one `svc exec` started), four workers, a tenant each.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    globalSetup: ['svc/testing/vitest-setup'],
    pool: 'forks',
    maxWorkers: 4,
    testTimeout: 20_000,
  },
});
