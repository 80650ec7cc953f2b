import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
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
export function ruffFor(adapter: Adapter): string | undefined {
  const program = adapter.function.command[0] ?? '';
  // A bare interpreter name (`python3`) is the one PATH finds, and so is its ruff.
  const interpreter = path.isAbsolute(program) ? program : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program)).find((file) => existsSync(file));
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

export async function runFormatter(adapter: Adapter, files: string[]): Promise<FormatterReport> {
  const began = performance.now();
  const ruff = ruffFor(adapter);
  if (!ruff) {
    const program = adapter.function.command[0] ?? '';
    return { provider: adapter.name, unformatted: [], lint: [], error: `no ruff beside the function's interpreter ${program}`, ms: performance.now() - began };
  }
  const cwd = adapter.source?.root ?? adapter.function.cwd;
  const run = (args: string[]) => execa(ruff, [...args, '--output-format', 'json', '--no-cache', '--', ...files], { cwd, reject: false, env: { NO_COLOR: '1' } });
  const [format, lint] = await Promise.all([run(['format', '--check']), run(['check'])]);
  const failed = [format, lint].find((result) => result.failed && result.exitCode !== 1);
  if (failed) {
    const why = failed.exitCode === undefined ? (failed as { shortMessage?: string }).shortMessage ?? 'could not start' : `exit code ${failed.exitCode}: ${String(failed.stderr).trim().split('\n').slice(-3).join(' ')}`;
    return { provider: adapter.name, unformatted: [], lint: [], error: `${ruff}: ${why}`, ms: performance.now() - began };
  }
  const unformatted = violations(String(format.stdout), cwd);
  // One line per file: the first place the formatter would change.
  const firstPerFile = unformatted.filter((violation, index) => unformatted.findIndex((other) => other.file === violation.file) === index);
  return { provider: adapter.name, unformatted: firstPerFile, lint: violations(String(lint.stdout), cwd), ms: performance.now() - began };
}
