#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { driftV8Flags } from './v8-flags.js';

// Set before anything else is loaded (bin/v8-flags.js says why these).
const V8_FLAGS = driftV8Flags(process.env, process.argv.slice(2));
for (const flag of V8_FLAGS) setFlagsFromString(flag);
// Ctrl-C, a terminal hang-up or a kill are answered from the first instant, before drift has loaded
// anything or spawned a function: exit with the shell's 128 + signal number, stopping every function
// process drift started on the way (the reaper, once it is loaded). While drift writes (the write
// guard of src/goldens/atomicFile.ts), the exit waits for the writes to end: files stay whole and
// the signal is not lost. The handlers live here, not in main(), so drift run in-process
// (main(argv, io)) installs nothing global.
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
let reaper;
let writeGuard;
const leave = (code) => {
  reaper?.stopAll();
  process.exit(code);
};
for (const [signal, code] of Object.entries(SIGNAL_EXIT)) {
  process.on(signal, () => (writeGuard ? writeGuard.afterWrites(() => leave(code)) : leave(code)));
}
// Any other ending (a normal exit, an error) stops them too; SIGKILL is left to each watchdog.
process.on('exit', () => reaper?.stopAll());
// The bench's ablation (scripts/bench-ablation.mjs) switches speed layers off by name, read here once:
// `codeCache` below, the rest handed to drift (src/util/speedLayers.ts).
const SPEED_OFF = new Set((process.env.DRIFT_SPEED_OFF ?? '').split(','));
const drift = await load();
drift.setSpeedLayers(drift.speedLayersOff(process.env.DRIFT_SPEED_OFF));
reaper = drift.reaper;
writeGuard = drift.writeGuard;
// Test-only: hold the first spawn so a test can signal drift before anything of its own runs.
const pause = Number(process.env.DRIFT_TEST_PAUSE_BEFORE_SPAWN_MS);
if (pause > 0) reaper.holdFirstSpawn(pause, () => process.stderr.write('drift: test pause before the first spawn\n'));
// Test-only: the first durable write blocks before its rename (until the resume file exists), so a test can signal drift mid-write.
const writePause = Number(process.env.DRIFT_TEST_PAUSE_IN_WRITE_MS);
if (writePause > 0) writeGuard.pauseFirstWrite(writePause, () => process.stderr.write('drift: test pause in a write\n'), process.env.DRIFT_TEST_RESUME_FILE || undefined);
process.exitCode = await drift.main(process.argv);
// A signal that came while the last writes ran (synchronously: the thread blocked in the file
// system) is still queued in libuv's signal pipe, which only a poll phase reads. The first timer after
// a long block fires before the loop polls (its clock was stale), so the exit waits three timer turns,
// about 3 ms: measured 0 of 10 signals read with one turn, 10 of 10 with three (an immediate alone
// lost one in three). A command a signal interrupted so exits 128 + n, never 0.
for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setTimeout(resolve, 1));
drift.keep();

/**
 * The build's one-file bundle, its compiled code kept by V8's code cache in drift's cache folder as
 * the working directory finds it (src/cli/codeCache.ts, src/cache/policy.ts; `--no-cache` or
 * DRIFT_NO_CACHE=1: compiled every time, nothing read or written). Without a bundle (a build by tsc
 * alone), dist/'s modules.
 */
async function load() {
  const bundle = fileURLToPath(new URL('../dist/bundle/drift.cjs', import.meta.url));
  if (!existsSync(bundle)) {
    const [reaper, { main }, { setSpeedLayers, speedLayersOff }, { writeGuard }] = await Promise.all([import('../dist/functions/reaper.js'), import('../dist/cli/main.js'), import('../dist/util/speedLayers.js'), import('../dist/goldens/atomicFile.js')]);
    return { reaper, main, setSpeedLayers, speedLayersOff, writeGuard, keep: () => {} };
  }
  refuseStaleBundle(bundle);
  const [{ codeCacheSpot, loadBundle }, { cachePolicy }] = await Promise.all([import('../dist/cli/codeCache.js'), import('../dist/cache/policy.js')]);
  const cache = cachePolicy(process.cwd(), process.env);
  const spot = cache.enabled && !SPEED_OFF.has('codeCache') ? codeCacheSpot(cache.folder, process.argv.slice(2), [...process.execArgv, ...(V8_FLAGS.length > 0 ? V8_FLAGS : ['turbofan'])]) : undefined;
  const { exports, keep } = loadBundle(bundle, spot);
  return { reaper: exports.reaper, main: exports.main, setSpeedLayers: exports.setSpeedLayers, speedLayersOff: exports.speedLayersOff, writeGuard: exports.writeGuard, keep };
}

/**
 * In a checkout (src/ beside dist/), a bundle older than the dist/ modules it was made from is another
 * program than they are (`tsc` run alone after `npm run build`): refused, not run. A few stats, so
 * start-up stays cheap; every tsc run rewrites every module. An installed package has no src/: its
 * bundle and modules come from one tarball, and npm's extraction gives them times in file order.
 */
function refuseStaleBundle(bundle) {
  const modules = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  if (!existsSync(fileURLToPath(new URL('../src', import.meta.url)))) return;
  if (!existsSync(modules) || statSync(modules).mtimeMs <= statSync(bundle).mtimeMs) return;
  process.stderr.write(`drift: ${bundle} is older than the modules beside it (dist/cli/main.js): it was built from other sources. Run \`npm run build\` to bundle them again.\n`);
  process.exit(2);
}
