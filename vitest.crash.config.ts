import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

// The SIGKILL-at-each-step test alone (excluded from `npm test` while it is flaky under parallel load).
export default mergeConfig(
  base,
  defineConfig({ test: { include: ['test/resilience/crash-at-step.test.ts'], exclude: [] } }),
);
