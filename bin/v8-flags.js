/**
 * The V8 flags drift runs with, in one place: bin/drift.js sets them, its code cache is keyed by
 * them, and the bench's children (scripts/bench-style.mjs) take them to measure drift as it runs.
 *
 * A drift run is short and runs much of its code a few hundred times: TurboFan's optimising (and
 * re-optimising after deopts) cost it more CPU than the optimised code saved. Likewise for
 * WebAssembly (the Python grammar's parser): its baseline code only, no optimising tier-up, whose
 * background compiles of the parser's large functions cost a short run more than they saved
 * (docs/performance.md). DRIFT_TURBOFAN=1 keeps both, for a very long run.
 */
export function driftV8Flags(env) {
  return env.DRIFT_TURBOFAN ? [] : ['--no-opt', '--liftoff-only'];
}
