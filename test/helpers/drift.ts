/** The built drift CLI, run as a user runs it. Vitest's global set-up (test/global-setup.ts) builds it once per run. */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { inject } from 'vitest';
import type { DriftTools } from '../../src/mcp/tools.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { REPO } from './project.js';

/** `node <driftBin()> ...` runs drift compiled from the sources as they were when this test run started. */
export function driftBin(): string {
  const bin = inject('driftBin');
  if (!bin) throw new Error('no built drift: run the tests through vitest, whose global set-up builds it (test/global-setup.ts)');
  return bin;
}

export interface DriftRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertions that do not care which. */
  all: string;
}

/** This process's environment without CI (so a test run inside CI still exercises `drift update`), uncolored, with `env` over it. */
function environment(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined) base[name] = value;
  return { ...base, NO_COLOR: '1', ...env };
}

/**
 * What in-process runs see: the tests' answer cache, kept between runs (test/global-setup.ts), instead of the
 * suite's DRIFT_NO_CACHE, unless the test asks for live renders itself (`DRIFT_NO_CACHE: '1'`). Cached
 * answers are keyed by the function's source tree, its environment, the adapter and the request, and
 * written only for cells whose determinism replays agreed: a seeded edit always renders for real.
 */
function cachedEnvironment(env: Record<string, string>): Record<string, string> {
  const all = environment(env);
  if (env.DRIFT_NO_CACHE !== undefined) return all;
  const { DRIFT_NO_CACHE: _live, ...rest } = all;
  return { DRIFT_CACHE_DIR: inject('answerCache'), ...rest };
}

/**
 * The environment of a drift process that replays from the tests' answer cache as in-process runs do:
 * for a process kept for what only a process shows (the MCP server over stdio) whose renders need not
 * be live. A test of a function process in flight keeps DRIFT_NO_CACHE (runDriftProcess's default).
 */
export function replayingProcessEnvironment(env: Record<string, string> = {}): Record<string, string> {
  return cachedEnvironment(env);
}

type Main = (argv: string[], io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown }; cwd: string; env: Record<string, string> }) => Promise<number>;
const mains = new Map<string, Promise<Main>>();

/**
 * The `main` of a build, loaded once per test file from the module bin/drift.js runs: the bundle
 * (dist/bundle/drift.cjs), so what the tests run is what ships, bundler's work included.
 */
function mainOf(bin: string): Promise<Main> {
  let loaded = mains.get(bin);
  if (!loaded) {
    loaded = Promise.resolve((bundleOf(bin) as { main: Main }).main);
    mains.set(bin, loaded);
  }
  return loaded;
}

/** The exports of a build's bundle (dist/bundle/drift.cjs beside its bin), loaded once per test file. */
function bundleOf(bin: string): Record<string, unknown> {
  const bundle = path.join(path.dirname(path.dirname(bin)), 'dist/bundle/drift.cjs');
  return createRequire(bundle)(bundle) as Record<string, unknown>;
}

/**
 * Runs the built CLI in `cwd`, in this process: the build's `main(argv, io)` with the output
 * collected, exactly what bin/drift.js calls. Never rejects. What only a process shows (signals, exit
 * codes set by Node itself, the installed package) uses runDriftProcess.
 */
export function runDrift(args: string[], cwd: string, env: Record<string, string> = {}, bin = driftBin()): Promise<DriftRun> {
  return runDriftWithEnvironment(args, cwd, cachedEnvironment(env), bin);
}

/** runDrift with exactly `env` as drift's environment, nothing of this process's added. */
export async function runDriftWithEnvironment(args: string[], cwd: string, env: Record<string, string>, bin = driftBin()): Promise<DriftRun> {
  const main = await mainOf(bin);
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, cwd, env };
  const exitCode = await main(['node', 'drift', ...args], io);
  return { exitCode, stdout, stderr, all: `${stdout}${stderr}` };
}

/**
 * The MCP server's tools (src/mcp/tools.ts) of the build's bundle, over the project in `cwd`, in this process and
 * with runDrift's environment (`env` over it): what the server answers, without the stdio transport mcp.test.ts covers.
 */
export async function driftTools(cwd: string, env: Record<string, string> = {}, bin = driftBin()): Promise<DriftTools> {
  const { DriftTools: Tools } = bundleOf(bin) as { DriftTools: typeof DriftTools };
  return new Tools({ config: undefined, cwd, env: cachedEnvironment(env), policy: LOCAL_POLICY, deadlineMs: 600_000 });
}

/**
 * Runs the built CLI (or another build's `bin`) as its own process in `cwd`. Never rejects.
 *
 * The tests that need a real drift process, and why (everything else runs in-process via runDrift):
 * - test/cli/lifecycle.test.ts, "no function outlives drift": SIGKILL, SIGHUP and Ctrl-C reach a
 *   process; what the watchdog and the signal handlers of bin/drift.js do is only seen from outside.
 * - test/cli/render-cli.test.ts, the hanging function: Ctrl-C during a call, and the exit code 130.
 * - test/cli/accept.test.ts, "4 at once": several drifts racing for accepted.yaml's file lock.
 * - test/cli/mcp.test.ts: the MCP server speaks over its own stdin and stdout. The file's main server
 *   replays renders from the answer cache (replayingProcessEnvironment); the SIGTERM and deadline
 *   servers render live, since a function in flight is what they test.
 * - test/cli/reliability.test.ts: Ctrl-C before the first spawn and during one (exit 130, no
 *   function left behind), and a CEL range() that would block the event loop, under a timeout only a
 *   separate process can have.
 * - .ci/run's package check (scripts/check-package.sh): the packed tarball, installed and run.
 */
export async function runDriftProcess(args: string[], cwd: string, env: Record<string, string> = {}, bin = driftBin()): Promise<DriftRun> {
  const result = await startDrift(args, cwd, { env, bin, stripFinalNewline: false });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  return { exitCode: result.exitCode ?? -1, stdout, stderr, all: `${stdout}${stderr}` };
}

/**
 * Starts the built CLI as its own process and hands back the running child (never rejects), for a test
 * that signals it or watches it mid-run. Its environment is whole, never merged into this process's:
 * CI, which every CI service sets, would make drift refuse to write and turn strict.
 */
export function startDrift(args: string[], cwd: string, options: { env?: Record<string, string>; replaying?: boolean; timeout?: number; bin?: string; stripFinalNewline?: boolean } = {}) {
  const env = options.replaying ? cachedEnvironment(options.env ?? {}) : environment(options.env ?? {});
  return execa('node', [options.bin ?? driftBin(), ...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    // execa would SIGKILL a SIGTERMed child after 5 s: on a loaded machine drift's own exit may take longer.
    forceKillAfterDelay: false,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.stripFinalNewline === undefined ? {} : { stripFinalNewline: options.stripFinalNewline }),
  });
}

/**
 * A copy of this run's build (bin, dist, schemas, package.json) with the repository's docs/ and
 * scripts/, node_modules linked: a test may edit what the built rules say without touching the
 * build every other test runs.
 */
export function copyPackage(): { dir: string; bin: string; rebundle: () => void; remove: () => void } {
  const build = path.dirname(path.dirname(driftBin()));
  const dir = mkdtempSync(path.join(tmpdir(), 'drift-package-'));
  // Timestamps kept: bin/drift.js tells a stale bundle by its modules being newer.
  for (const entry of ['bin', 'dist', 'schemas', 'queries', 'package.json']) cpSync(path.join(build, entry), path.join(dir, entry), { recursive: true, preserveTimestamps: true });
  for (const entry of ['scripts', 'docs']) cpSync(path.join(REPO, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // After an edit of the copy's dist/ modules, its bundle built again from them, as `npm run build` would.
  const rebundle = () => void execaSync('node', [path.join(REPO, 'scripts/bundle.mjs'), path.join(dir, 'dist')]);
  return { dir, bin: path.join(dir, 'bin/drift.js'), rebundle, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
