import { defineConfig } from 'vitest/config';

// Node-side tests only: widget component tests run in Chromium under web-test-runner.
export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'test/**/*.test.ts', 'chaos/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
