import type { Environment } from '../util/envVars.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { toolFolder } from '../cache/folder.js';
import { moveFolderIntoPlace, temporaryOf } from '../goldens/atomicFile.js';
import path from 'node:path';
import type { Adapter } from '../config/types.js';
import { batchedTool, succeeded, type Ran, type RuffRecord } from './ruffBatch.js';

/**
 * Edge module: runs the formatter and linter on a provider's source, `ruff format --check` and
 * `ruff check`. Which ruff (see resolveRuff): the one in the provider's own Python environment (the
 * folder of its interpreter), so the version pinned in its requirements decides; where that
 * environment has none (a real repository's lock file need not list it), ruff RUFF_VERSION in a
 * Python environment drift creates once in its cache folder with the provider's interpreter. Either
 * way the same working folder and file arguments, so ruff finds the committed configuration itself
 * (the nearest ruff.toml or pyproject.toml above each file, `providers/ruff.toml` for the bundled
 * ones). No ruff at all is a note, not a finding; nothing reported carries an absolute path.
 */

/** The ruff drift installs where the provider's environment has none: the bundled providers' pin. */
export const RUFF_VERSION = '0.17.5';

export interface Violation {
  /** Relative to the source root. */
  file: string;
  line: number;
  code: string;
  message: string;
}

/** Which ruff ran, as the report names it. */
export interface RuffUsed {
  /** `provider`: from the provider's Python environment; `drift`: the one drift installed in its cache. */
  origin: 'provider' | 'drift';
  version: string;
  /** In words, without an absolute path: "ruff 0.17.5 from the provider's Python environment". */
  describe: string;
}

export interface FormatterReport {
  provider: string;
  /** Files `ruff format` would change, each with the first line it would change. */
  unformatted: Violation[];
  /** What `ruff check` reports. */
  lint: Violation[];
  /** The ruff that ran; absent when none could (see `note`). */
  ruff?: RuffUsed;
  /** Why no ruff could run (none in the provider's environment, and drift could not install one): a note, never an error. */
  note?: string;
  /** Why the ruff that ran failed (not "found something"), when it did. */
  error?: string;
  ms: number;
}

/** Where a ruff is, and where it came from. */
interface RuffProgram {
  program: string;
  origin: RuffUsed['origin'];
}

const RUFF_EXE = process.platform === 'win32' ? 'ruff.exe' : 'ruff';
const BIN = process.platform === 'win32' ? 'Scripts' : 'bin';

/** The provider's interpreter as a file: given as a path, or the one PATH finds for a bare name (`python3`). */
function interpreterOf(adapter: Adapter, env: Environment): string | undefined {
  const program = adapter.function.command[0] ?? '';
  if (path.isAbsolute(program)) return program;
  return (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program)).find((file) => existsSync(file));
}

/**
 * The ruff beside the provider's interpreter (`.venv/bin/python` → `.venv/bin/ruff`): the one its
 * requirements pin. Never one from PATH, whose version nobody chose.
 */
export function ruffFor(adapter: Adapter, env: Environment): string | undefined {
  const interpreter = interpreterOf(adapter, env);
  const beside = interpreter ? path.join(path.dirname(interpreter), RUFF_EXE) : undefined;
  return beside && existsSync(beside) ? beside : undefined;
}

/** The environment drift keeps for its own ruff, one per version, in the cache module's tool folder (cache/folder.ts); `root` is the project's. */
export function managedRuffEnvironment(env: Environment, root: string): string {
  return toolFolder(root, env, `ruff-${RUFF_VERSION}`);
}

// One installation per process and folder, however many providers ask at once.
const installing = new Map<string, Promise<string>>();

/**
 * drift's own ruff: created once with the provider's interpreter (`python -m venv`, then `pip install
 * ruff==RUFF_VERSION` from the configured index), in a temporary folder renamed into place when
 * complete, so a concurrent or interrupted drift never sees half an environment. Rejects with what
 * failed, in words without absolute paths.
 *
 * The environment is made without pip, and the interpreter's own pip installs into it (`pip --python`,
 * pip 22.3+): seeding a new pip into it (ensurepip) cost 9 CPU-s here, the install itself 4. Only an
 * interpreter without a usable pip gets one seeded.
 */
function managedRuff(python: string, env: Environment, root: string): Promise<string> {
  const folder = managedRuffEnvironment(env, root);
  const program = path.join(folder, BIN, RUFF_EXE);
  if (existsSync(program)) return Promise.resolve(program);
  let pending = installing.get(folder);
  if (!pending) {
    pending = install(python, folder, env).then(() => program);
    installing.set(folder, pending);
    pending.catch(() => installing.delete(folder));
  }
  return pending;
}

async function install(python: string, folder: string, env: Environment): Promise<void> {
  mkdirSync(path.dirname(folder), { recursive: true });
  const temporary = temporaryOf(folder);
  rmSync(temporary, { recursive: true, force: true });
  mkdirSync(temporary);
  try {
    const venv = await run(python, ['-m', 'venv', '--without-pip', temporary], path.dirname(folder), env);
    if (venv.exitCode !== 0) throw new Error(`python -m venv failed: ${venv.failure ?? lastLines(venv.stderr)}`);
    const target = path.join(temporary, BIN, process.platform === 'win32' ? 'python.exe' : 'python');
    const ruff = ['install', '--disable-pip-version-check', '--no-input', '--quiet', `ruff==${RUFF_VERSION}`];
    let pip = await run(python, ['-m', 'pip', '--python', target, ...ruff], path.dirname(folder), env);
    if (pip.exitCode !== 0 && !(await hasPip(python, folder, env))) {
      const seeded = await run(target, ['-m', 'ensurepip', '--default-pip'], path.dirname(folder), env);
      if (seeded.exitCode !== 0) throw new Error(`python -m ensurepip failed: ${seeded.failure ?? lastLines(seeded.stderr)}`);
      pip = await run(target, ['-m', 'pip', ...ruff], path.dirname(folder), env);
    }
    if (pip.exitCode !== 0) throw new Error(`pip install ruff==${RUFF_VERSION} failed: ${pip.failure ?? lastLines(pip.stderr)}`);
    try {
      moveFolderIntoPlace(temporary, folder);
    } catch (error) {
      // Another drift finished first: its environment is as good as this one.
      if (!existsSync(path.join(folder, BIN, RUFF_EXE))) throw error;
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** Whether the interpreter's own pip can install into another environment (`--python` came in pip 22.3). */
async function hasPip(python: string, folder: string, env: Environment): Promise<boolean> {
  const probe = await run(python, ['-m', 'pip', '--python', python, '--version'], path.dirname(folder), env);
  return probe.exitCode === 0;
}

// Providers that share a Python environment share its ruff: ask its version once per process.
const versions = new Map<string, Promise<string>>();

/** What `ruff --version` says, e.g. `0.17.5`. */
function versionOf(program: string, cwd: string, env: Environment): Promise<string> {
  let version = versions.get(program);
  if (!version) {
    version = run(program, ['--version'], cwd, env).then((ran) => /(\d+\.\d+\.\d+\S*)/.exec(ran.stdout)?.[1] ?? 'of unknown version');
    versions.set(program, version);
  }
  return version;
}

/** The ruff a provider's source is checked with: its own, else drift's (installed on first use). */
async function resolveRuff(adapter: Adapter, env: Environment, root: string): Promise<RuffProgram> {
  const own = ruffFor(adapter, env);
  if (own) return { program: own, origin: 'provider' };
  const interpreter = interpreterOf(adapter, env);
  // A function that is not started by a Python interpreter still has Python source; any python3 makes the environment.
  const python = interpreter && /^python[\d.]*(\.exe)?$/i.test(path.basename(interpreter)) ? interpreter : 'python3';
  try {
    return { program: await managedRuff(python, env, root), origin: 'drift' };
  } catch (error) {
    throw new Error((error as Error).message.split(python).join(`the provider's interpreter (${path.basename(python)})`));
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ');
}

/** Text as a report may show it: the source root, drift's cache and the home folder never appear as absolute paths. */
function withoutAbsolutePaths(text: string, root: string, env: Environment, tools: string): string {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const out = text.split(`${root}${path.sep}`).join('').split(tools).join("<drift's cache>");
  return home.length > 1 ? out.split(home).join('~') : out;
}

function violations(records: readonly RuffRecord[], root: string): Violation[] {
  return records
    .map((record) => ({ file: path.relative(root, record.filename), line: record.location.row, code: record.code ?? 'syntax', message: record.message }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.code < b.code ? -1 : 1)));
}

/** The files ruff takes its settings from; one in a file's folder or any folder above applies to it. */
export const RUFF_CONFIG_NAMES = ['ruff.toml', '.ruff.toml', 'pyproject.toml'] as const;

/**
 * Every ruff configuration file in `folder` and the folders above it, nearest folder first; lazily,
 * so a caller that needs only the nearest stops the walk there.
 * @yields each configuration file's path
 */
export function* ruffConfigFiles(folder: string): Generator<string> {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    for (const name of RUFF_CONFIG_NAMES) {
      const file = path.join(dir, name);
      if (existsSync(file)) yield file;
    }
    if (path.dirname(dir) === dir) return;
  }
}

/**
 * Whether a ruff configuration (`.ruff.toml`, `ruff.toml`, or a `pyproject.toml` with a `[tool.ruff`
 * table) lies in `folder` or above it: then ruff takes each file's settings from the file's own
 * folders wherever it runs, and the provider's check can share a process with others (ruffBatch.ts).
 * Without one, ruff's defaults depend on the folder it runs in, so the provider runs alone. Looked
 * up every time (a few stat calls): a long-lived drift (`drift mcp`) sees a configuration added later.
 */
function configuredAbove(folder: string): boolean {
  for (const file of ruffConfigFiles(folder)) if (path.basename(file) !== 'pyproject.toml' || hasRuffTable(file)) return true;
  return false;
}

function hasRuffTable(pyproject: string): boolean {
  try {
    return /^\[tool\.ruff[\].]/m.test(readFileSync(pyproject, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs a program to its end with its output collected; never rejects. */
function run(program: string, args: string[], cwd: string, env: Environment): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let failure: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      failure = error.message;
    });
    child.on('close', (code, signal) => {
      const exitCode = failure !== undefined || code === null ? undefined : code;
      resolve({ exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), ...(failure ?? signal ? { failure: failure ?? `killed by ${signal}` } : {}) });
    });
  });
}

/** `projectRoot`: the folder of drift.config.yaml, against which a relative DRIFT_CACHE_DIR is resolved. */
export async function runFormatter(adapter: Adapter, files: string[], env: Environment, projectRoot = adapter.dir): Promise<FormatterReport> {
  const tools = path.dirname(managedRuffEnvironment(env, projectRoot));
  const began = performance.now();
  const cwd = adapter.source?.root ?? adapter.function.cwd;
  const base = { provider: adapter.name, unformatted: [], lint: [] };
  let ruff: RuffProgram;
  try {
    ruff = await resolveRuff(adapter, env, projectRoot);
  } catch (error) {
    const why = withoutAbsolutePaths((error as Error).message, cwd, env, tools);
    return { ...base, note: `formatting not checked: no ruff in the provider's Python environment, and drift could not install ruff ${RUFF_VERSION} (${why}); add ruff to the provider's requirements`, ms: performance.now() - began };
  }
  // node:child_process, not execa: its import alone costs more than both ruff runs' start.
  const shared = configuredAbove(path.resolve(cwd));
  const ruffRun = (args: string[]) =>
    batchedTool(env, shared ? [ruff.program, ...args].join('\0') : undefined, cwd, files, (paths, at) => run(ruff.program, [...args, '--output-format', 'json', '--no-cache', '--', ...paths], at, env));
  const [number, format, lint] = await Promise.all([versionOf(ruff.program, cwd, env), ruffRun(['format', '--check']), ruffRun(['check'])]);
  const used: RuffUsed = {
    origin: ruff.origin,
    version: number,
    describe: ruff.origin === 'provider' ? `ruff ${number} from the provider's Python environment` : `ruff ${number}, installed by drift (none in the provider's Python environment)`,
  };
  const failed = [format, lint].find((result) => !succeeded(result));
  if (failed) {
    const why = failed.exitCode === undefined ? `could not run: ${failed.failure ?? 'unknown'}` : `exit code ${failed.exitCode}: ${lastLines(failed.stderr)}`;
    return { ...base, ruff: used, error: `${used.describe}: ${withoutAbsolutePaths(why, cwd, env, tools)}`, ms: performance.now() - began };
  }
  const unformatted = violations(format.records, cwd);
  // One line per file: the first place the formatter would change.
  const firstPerFile = unformatted.filter((violation, index) => unformatted.findIndex((other) => other.file === violation.file) === index);
  return { ...base, ruff: used, unformatted: firstPerFile, lint: violations(lint.records, cwd), ms: performance.now() - began };
}
