import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Node-side tests only: widget component tests run in Chromium under web-test-runner.
 * Test files run in parallel, each with its own database and Redis prefix (test/support/harness.ts).
 * One worker more than cores: a stack test spends much of its time waiting on timers, the database
 * and the browser (the whole suite used ~1.2 of 2 cores with 3 workers), so a third worker fills them.
 */
export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'test/**/*.test.ts', 'chaos/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    maxWorkers: Math.min(8, availableParallelism() + 1),
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
