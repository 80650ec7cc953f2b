/**
 * The V8 flags drift runs with, per kind of process, in one place: bin/drift.js sets them, its code
 * cache is keyed by them, and the bench's children (scripts/bench-style.mjs) take them to measure
 * drift as it runs. Each kind's choice is measured (docs/performance.md, "V8 flags"):
 *
 * - A command that renders or outlines (diff, update, render, expect, …): a short run that runs much
 *   of its code a few hundred times, where TurboFan's optimising (and re-optimising after deopts)
 *   cost more CPU than the optimised code saved; likewise WebAssembly's optimising tier for the
 *   Python grammar's parser. Baseline tiers only: `--no-opt --liftoff-only`.
 * - A command that only reads the project and prints (list, rules, facets, --version, --help):
 *   nothing runs long enough for either tier to matter, and the flags cost it a little: Node's own.
 * - `drift migrate`, whose cost is the accepted list's size: Node's own (FILE_BOUND below).
 * - `drift mcp`, a long-lived server: its calls repeat the same code for as long as the session
 *   lasts (MCP_FLAGS below).
 *
 * DRIFT_TURBOFAN=1 gives every kind Node's defaults.
 */
const BASELINE = ['--no-opt', '--liftoff-only'];

/** Commands that neither render nor outline. */
const READERS = new Set(['none', 'list', 'rules', 'facets', 'help']);

/**
 * Commands whose cost grows with a file the user keeps, not with the renders: `drift migrate` parses and
 * rewrites goldens/accepted.yaml, and the yaml library under the baseline tiers took 13 s of CPU for
 * 31k entries against 3.4 s with TurboFan; on the bundled list both cost the same (157 vs 161 ms).
 */
const FILE_BOUND = new Set(['migrate']);

/** The global options that take a value (src/cli/main.ts): what follows them is not the command. */
const VALUED = new Set(['-c', '--config', '-j', '--concurrency']);

/** drift mcp's flags: the baseline tiers, measured cheaper over 50 calls (docs/performance.md). */
const MCP_FLAGS = BASELINE;

/** The command of a drift invocation's arguments (after `node drift.js`): `none` when there is none (`--version`, `--help`). */
export function commandOf(args) {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (VALUED.has(arg)) index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return 'none';
}

export function driftV8Flags(env, args = ['diff']) {
  if (env.DRIFT_TURBOFAN) return [];
  const command = commandOf(args);
  if (READERS.has(command) || FILE_BOUND.has(command)) return [];
  return command === 'mcp' ? MCP_FLAGS : BASELINE;
}
