import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds drift once, before any test file: CLI tests run what the sources say now.
    globalSetup: ['test/global-setup.ts'],
    // Integration tests start real Python functions; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
