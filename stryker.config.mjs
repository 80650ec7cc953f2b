// Mutation testing of the pure cores with the unit tests: `npm run mutate` (not part of `npm test`;
// .github/workflows/mutate.yml runs it weekly). A surviving mutant is a change to the code that no
// unit test notices.
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.unit.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/compare/**/*.ts', 'src/skeleton/**/*.ts', 'src/world/**/*.ts'],
  // Each mutant runs only the tests that reach it; two at a time fits a 2-core machine.
  coverageAnalysis: 'perTest',
  // Static mutants (module-level tables and rule metadata) need every test rerun on a fresh module
  // graph: 4% of the mutants, half the time. Left out, they are reported as ignored.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  ignorePatterns: ['dist', '.venv', 'reports', 'coverage', '**/__pycache__'],
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the named tsconfig's extends/references through the TypeScript compiler API,
  // which TypeScript 7 no longer has; drift's tsconfig.json has neither, so name none (vitest
  // transpiles the sources itself).
  tsconfigFile: 'no-tsconfig-to-rewrite.json',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  // Report the score; no threshold fails the run yet.
  thresholds: { high: 80, low: 60, break: null },
};
