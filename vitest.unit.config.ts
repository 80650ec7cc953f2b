import { defineConfig } from 'vitest/config';

// The fast unit tests alone: no build, no processes. Mutation testing (stryker.config.mjs) runs
// these once per mutant, so they must stay quick.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // Instrumented for mutation testing on a busy 2-core machine, the largest report tests take seconds.
    testTimeout: 30_000,
    // The unit tests share no state through modules, so one module graph serves every file; under
    // mutation testing this saves re-importing the sources for every mutant.
    isolate: false,
  },
});
