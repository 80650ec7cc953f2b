/**
 * A throwaway copy of the drift project (providers, scenarios, goldens) that tests may break at will,
 * and the BUILT drift CLI run against it as a user would run it.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** The drift repository (this file lives in test/helpers). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const DRIFT_BIN = path.join(REPO, 'bin/drift.js');

/** drift.config.yaml with every path at its default, written into each copy. */
export const DEFAULT_CONFIG = ['providers: [providers/*/provider.yaml]', 'scenarios: [scenarios/*.yaml]', 'goldens: goldens', ''].join('\n');

export interface ProjectCopy {
  dir: string;
  remove: () => void;
}

/**
 * Copies providers/ (without __pycache__), scenarios/ and goldens/ of the repository (or of another
 * copy: `from`) into a fresh temp folder with a default drift.config.yaml, and links `<tmp>/.venv` to
 * the project's venv: the copied provider.yaml files start `../../.venv/bin/python` relative to
 * themselves.
 */
export function copyProject(options: { from?: string; prefix?: string } = {}): ProjectCopy {
  const from = options.from ?? REPO;
  const dir = mkdtempSync(path.join(tmpdir(), options.prefix ?? 'drift-goldens-'));
  const skipCaches = (source: string) => path.basename(source) !== '__pycache__' && !source.endsWith('.pyc');
  cpSync(path.join(from, 'providers'), path.join(dir, 'providers'), { recursive: true, filter: skipCaches });
  cpSync(path.join(from, 'scenarios'), path.join(dir, 'scenarios'), { recursive: true });
  cpSync(path.join(from, 'goldens'), path.join(dir, 'goldens'), { recursive: true });
  writeFileSync(path.join(dir, 'drift.config.yaml'), DEFAULT_CONFIG);
  symlinkSync(path.join(REPO, '.venv'), path.join(dir, '.venv'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Rewrites `providers/<provider>/<file>` in a copy. Throws when `change` leaves the text as it was,
 * so a test can never pass because the code it meant to break has moved on.
 */
export function mutate(tmp: string, provider: string, file: string, change: (text: string) => string): void {
  const target = path.join(tmp, 'providers', provider, file);
  const before = readFileSync(target, 'utf8');
  const after = change(before);
  if (after === before) {
    throw new Error(`mutate: the change to providers/${provider}/${file} did not change the text; the code it targets has changed, update the test`);
  }
  writeFileSync(target, after);
}

/** `text.replace(search, replacement)` that throws unless `search` occurs exactly `times` times. */
export function replaceExactly(text: string, search: string, replacement: string, times = 1): string {
  const found = text.split(search).length - 1;
  if (found !== times) throw new Error(`replaceExactly: expected ${times} occurrence(s) of ${JSON.stringify(search)}, found ${found}`);
  return text.split(search).join(replacement);
}

export interface DriftRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertions that do not care which. */
  all: string;
}

/**
 * Runs the built CLI (`node bin/drift.js ...args`) in `cwd`. Never rejects; CI is removed from the
 * environment unless `env` sets it, so a test run inside CI still exercises `drift update`.
 */
export async function runDrift(args: string[], cwd: string, env: Record<string, string> = {}): Promise<DriftRun> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined) base[name] = value;
  const result = await execa('node', [DRIFT_BIN, ...args], {
    cwd,
    env: { ...base, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  return { exitCode: result.exitCode ?? -1, stdout, stderr, all: `${stdout}${stderr}` };
}

/** sha256 of every file under `<tmp>/goldens`, by path relative to that folder (sorted). */
export function hashGoldens(tmp: string): Record<string, string> {
  const root = path.join(tmp, 'goldens');
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else out[path.relative(root, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
    }
  };
  walk(root);
  return out;
}

/** Paths (relative to goldens/) that were added, removed or rewritten between two hashGoldens results. */
export function changedGoldens(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
