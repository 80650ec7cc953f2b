import { accessSync, constants, statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Where the tests' temporary folders go: a memory file system when the machine has one. The CLI tests
 * copy the bundled project (about 120 files) dozens of times and remove each copy; on this machine's
 * disk (ext4 mounted with `discard`) that cost more system time than the drift runs in them. Measured,
 * 20 copies and removals: 1.1-1.4 CPU-s on /tmp, 0.35-0.48 CPU-s on /dev/shm.
 */
function scratchFolder(): string | undefined {
  try {
    if (!statSync('/dev/shm').isDirectory()) return undefined;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return undefined;
  }
}
const scratch = scratchFolder();

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
    env: { DRIFT_NO_CACHE: '1', ...(scratch ? { TMPDIR: scratch } : {}) },
    // One worker runs the files one after another in one process: the built drift (and Vitest's own
    // runtime) is loaded once, not once per file. Measured on 9 CLI and unit files, 2 cores: 36.4 CPU-s
    // isolated, 25.0 CPU-s not. Safe because no test changes process-wide state (process.env, cwd,
    // module mocks): each passes what it changes explicitly (runDrift's env, loadProject's env).
    isolate: false,
    server: {
      deps: {
        // The build a run tests (test/global-setup.ts) and its copies (copyPackage) are plain
        // JavaScript: Node loads them as a user's drift would, without Vite transforming each of their
        // ~200 modules and their source maps per test file (measured: 42.1 to 36.4 CPU-s on those 9 files).
        external: [/\/drift-(build|package)-[^/]+\/dist\//],
      },
    },
  },
});
