import { defineConfig } from 'vitest/config';

// Chains and databases are real processes, so tests are slow-ish and I/O bound: two forks on two cores.
const TEST_TIMEOUT_MS = 120_000;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    teardownTimeout: 30_000,
  },
});
