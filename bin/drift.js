#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// A drift run is short and runs much of its code a few hundred times: TurboFan's optimising (and
// re-optimising after deopts) cost it more CPU than the optimised code saved (docs/performance.md).
// Set before anything else is loaded; DRIFT_TURBOFAN=1 keeps it, for a very long run.
if (!process.env.DRIFT_TURBOFAN) setFlagsFromString('--no-opt');
// Ctrl-C, a terminal hang-up or a kill are answered from the first instant, before drift has loaded
// anything or spawned a function: exit with the shell's 128 + signal number, stopping every function
// process drift started on the way (the reaper, once it is loaded). The handlers live here, not in
// main(), so drift run in-process (main(argv, io)) installs nothing global.
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
let reaper;
for (const [signal, code] of Object.entries(SIGNAL_EXIT)) {
  process.once(signal, () => {
    reaper?.stopAll();
    process.exit(code);
  });
}
// Any other ending (a normal exit, an error) stops them too; SIGKILL is left to each watchdog.
process.on('exit', () => reaper?.stopAll());
reaper = await import('../dist/functions/reaper.js');
// Test-only: hold the first spawn so a test can signal drift before anything of its own runs.
const pause = Number(process.env.DRIFT_TEST_PAUSE_BEFORE_SPAWN_MS);
if (pause > 0) reaper.holdFirstSpawn(pause, () => process.stderr.write('drift: test pause before the first spawn\n'));
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv);
