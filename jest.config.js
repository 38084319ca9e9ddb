/** Jest in ESM mode (run through `node --experimental-vm-modules`, see package.json "test"). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 20000,
  setupFilesAfterEnv: ['<rootDir>/test/support/require-assertions.ts'],
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
};
