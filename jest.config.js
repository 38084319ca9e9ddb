/**
 * Jest in ESM mode (run through `node --experimental-vm-modules`, see package.json "test"). Two projects: every
 * test on Express, and the suites that boot a mount again on Fastify (`MCP_TEST_ADAPTER`, read by
 * test/support/test-app.ts).
 */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/support/require-assertions.ts'],
};

export default {
  testTimeout: 20000,
  // A worker per core: the suites wait on sockets and timers more than they compute, and Jest's default (one core
  // kept for itself) ran them in about twice the time on a 2-core machine.
  maxWorkers: '100%',
  // A worker's heap grows by about 13 MB a test file (Jest's ESM mode), to about 3 GB over a full run, whose exit
  // then outlasted Jest's 500 ms grace ("A worker process has failed to exit gracefully"): past 1 GB it is replaced.
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
  projects: [
    { ...shared, displayName: 'express', testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'] },
    {
      ...shared,
      displayName: 'fastify',
      setupFiles: ['<rootDir>/test/support/on-fastify.ts'],
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // `npm start` runs the sample in a process of its own, on Express; packaging does not depend on the adapter.
      testPathIgnorePatterns: ['/test/e2e/sample\\.e2e-spec\\.ts$', '/test/packaging/'],
    },
  ],
};
