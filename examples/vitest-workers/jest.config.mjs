// The same run under jest: one emulator for the run, started before the workers and stopped after.
export default {
  testMatch: ['**/test/**/*.test.mjs'],
  globalSetup: 'svc/testing/jest-setup',
  globalTeardown: 'svc/testing/jest-teardown',
  maxWorkers: 4,
};
