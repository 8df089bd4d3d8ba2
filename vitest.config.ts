import { defineConfig } from 'vitest/config';

// Chains and databases are real processes, so tests are slow-ish and I/O bound: two forks on two cores.
// The forks are not isolated per file: each keeps its imported modules from one test file to the next.
// Importing viem, kysely and the sources again for each of ~190 files was ~240 s of vitest's summed
// "collect" time (~24 s with the modules kept), about two minutes of the suite's wall time on this machine.
// The sources keep no module-level mutable state and the tests mock no modules, which is what makes sharing
// safe (CONTRIBUTING.md, "Habits"); spies, stubbed globals and stubbed env vars are undone after every test
// by vitest itself (the three options below), so one a test forgets cannot reach the next file.
const TEST_TIMEOUT_MS = 120_000;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Without DATABASE_URL: one embedded Postgres server for the run (test/harness/global-postgres.ts).
    globalSetup: ['test/harness/global-postgres.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    teardownTimeout: 30_000,
  },
});
