import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds drift once, before any test file: CLI tests run what the sources say now.
    globalSetup: ['test/global-setup.ts'],
    // Integration tests start real Python functions; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every run renders live unless a test names its answer cache folder (functions/answerCache.ts):
    // tests of processes, crashes and timings must see the function start.
    env: { DRIFT_NO_CACHE: '1' },
  },
});
