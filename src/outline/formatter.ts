import type { Environment } from '../util/environment.js';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Adapter } from '../config/types.js';

/**
 * Edge module: runs the formatter and linter on a provider's source, `ruff format --check` and
 * `ruff check`, from the provider's own Python environment (the folder of its interpreter), so the
 * version pinned in its requirements decides. Ruff finds the committed configuration itself (the
 * nearest ruff.toml or pyproject.toml above each file, `providers/ruff.toml` for the bundled ones).
 */

export interface Violation {
  /** Relative to the source root. */
  file: string;
  line: number;
  code: string;
  message: string;
}

export interface FormatterReport {
  provider: string;
  /** Files `ruff format` would change, each with the first line it would change. */
  unformatted: Violation[];
  /** What `ruff check` reports. */
  lint: Violation[];
  /** Why ruff could not run, when it could not. */
  error?: string;
  ms: number;
}

/**
 * The ruff beside the provider's interpreter (`.venv/bin/python` → `.venv/bin/ruff`): the one its
 * requirements pin. Never one from PATH, whose version nobody chose.
 */
export function ruffFor(adapter: Adapter, env: Environment): string | undefined {
  const program = adapter.function.command[0] ?? '';
  // A bare interpreter name (`python3`) is the one PATH finds, and so is its ruff.
  const interpreter = path.isAbsolute(program) ? program : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program)).find((file) => existsSync(file));
  const beside = interpreter ? path.join(path.dirname(interpreter), 'ruff') : undefined;
  return beside && existsSync(beside) ? beside : undefined;
}

interface RuffRecord {
  filename: string;
  code: string | null;
  message: string;
  location: { row: number; column: number };
}

function violations(stdout: string, root: string): Violation[] {
  const records = JSON.parse(stdout || '[]') as RuffRecord[];
  return records
    .map((record) => ({ file: path.relative(root, record.filename), line: record.location.row, code: record.code ?? 'syntax', message: record.message }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.code < b.code ? -1 : 1)));
}

interface Ran {
  /** Undefined when the program could not be started. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Why it could not be started (`spawn …/ruff EACCES`), or how a signal ended it. */
  failure?: string;
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

export async function runFormatter(adapter: Adapter, files: string[], env: Environment): Promise<FormatterReport> {
  const began = performance.now();
  const ruff = ruffFor(adapter, env);
  if (!ruff) {
    const program = adapter.function.command[0] ?? '';
    return { provider: adapter.name, unformatted: [], lint: [], error: `no ruff beside the function's interpreter ${program}`, ms: performance.now() - began };
  }
  const cwd = adapter.source?.root ?? adapter.function.cwd;
  // node:child_process, not execa: its import alone costs more than both ruff runs' start.
  const ruffRun = (args: string[]) => run(ruff, [...args, '--output-format', 'json', '--no-cache', '--', ...files], cwd, env);
  const [format, lint] = await Promise.all([ruffRun(['format', '--check']), ruffRun(['check'])]);
  // Exit code 1 is ruff's "found something"; anything else is ruff failing.
  const failed = [format, lint].find((result) => result.exitCode !== 0 && result.exitCode !== 1);
  if (failed) {
    const why = failed.exitCode === undefined ? `could not run: ${failed.failure ?? 'unknown'}` : `exit code ${failed.exitCode}: ${failed.stderr.trim().split('\n').slice(-3).join(' ')}`;
    return { provider: adapter.name, unformatted: [], lint: [], error: `${ruff}: ${why}`, ms: performance.now() - began };
  }
  const unformatted = violations(format.stdout, cwd);
  // One line per file: the first place the formatter would change.
  const firstPerFile = unformatted.filter((violation, index) => unformatted.findIndex((other) => other.file === violation.file) === index);
  return { provider: adapter.name, unformatted: firstPerFile, lint: violations(lint.stdout, cwd), ms: performance.now() - began };
}
