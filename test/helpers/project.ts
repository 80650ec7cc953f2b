/**
 * The drift repository and throwaway projects for tests: temp folders, temp configs, and copies of
 * the bundled project that a test may break at will. Everything lives under the OS temp folder and
 * is removed by the caller.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

/** The drift repository (this file lives in test/helpers), without a trailing slash. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const BROKEN = path.join(REPO, 'test/fixtures/broken');

/**
 * The providers the project holds, as drift lists them (sorted): the `name:` of every
 * providers/<folder>/provider.yaml. Tests that speak of the bundled set read it here rather than spell five
 * names, so a provider added to the project leaves them true (scripts/test-sixth-provider.mjs checks it).
 */
export function bundledProviders(root = REPO): string[] {
  const folder = path.join(root, 'providers');
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      if (!entry.isDirectory()) return [];
      const adapter = path.join(folder, entry.name, 'provider.yaml');
      try {
        return [/^name:\s*(\S+)\s*$/m.exec(readFileSync(adapter, 'utf8'))?.[1] ?? entry.name];
      } catch {
        return [];
      }
    })
    .sort();
}
export const BROKEN_NAMES = ['crash', 'exit-zero', 'fatal', 'garbage', 'hang'] as const;

export function brokenAdapter(name: (typeof BROKEN_NAMES)[number]): string {
  return path.join(BROKEN, name, 'provider.yaml');
}

/** A fresh temp folder; call `remove` when done. */
export function tempDir(prefix = 'drift-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (relative path -> text) under `dir`, creating folders; returns their absolute paths. */
export function writeFiles(dir: string, files: Record<string, string>): Record<string, string> {
  const written: Record<string, string> = {};
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    written[relative] = file;
  }
  return written;
}

export interface TempConfig {
  providers: string | string[];
  scenarios: string | string[];
  concurrency?: number;
  maxSteps?: number;
  timeouts?: { startMs?: number; callMs?: number };
  [key: string]: unknown;
}

/**
 * A temp folder holding a drift.config.yaml; absolute globs keep the real repository's files in
 * place, which the config lists under `roots:` (paths outside a config's folder must be listed).
 */
export function tempProject(config: TempConfig): { dir: string; configFile: string; remove: () => void } {
  const { dir, remove } = tempDir('drift-project-');
  const configFile = writeFiles(dir, { 'drift.config.yaml': stringify({ roots: [REPO], ...config }) })['drift.config.yaml']!;
  return { dir, configFile, remove };
}

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
  const { dir, remove } = tempDir(options.prefix ?? 'drift-goldens-');
  try {
    const skipCaches = (source: string) => path.basename(source) !== '__pycache__' && !source.endsWith('.pyc');
    cpSync(path.join(from, 'providers'), path.join(dir, 'providers'), { recursive: true, filter: skipCaches });
    cpSync(path.join(from, 'scenarios'), path.join(dir, 'scenarios'), { recursive: true });
    cpSync(path.join(from, 'goldens'), path.join(dir, 'goldens'), { recursive: true });
    writeFileSync(path.join(dir, 'drift.config.yaml'), DEFAULT_CONFIG);
    symlinkSync(path.join(REPO, '.venv'), path.join(dir, '.venv'), 'dir');
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
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

/**
 * A virtual environment of its own at `root`, on the project environment's interpreter, that reads the
 * project's packages (the function SDK) through a .pth file: a test may "install" into its
 * site-packages, or edit what it holds, without touching the project's.
 */
export function linkedVenv(root: string): { bin: string; site: string } {
  const real = realpathSync(path.join(REPO, '.venv'));
  const lib = readdirSync(path.join(real, 'lib')).find((name) => name.startsWith('python'));
  if (!lib) throw new Error(`linkedVenv: ${real}/lib holds no python* folder; run npm install`);
  const site = path.join(root, 'lib', lib, 'site-packages');
  mkdirSync(site, { recursive: true });
  mkdirSync(path.join(root, 'bin'));
  copyFileSync(path.join(real, 'pyvenv.cfg'), path.join(root, 'pyvenv.cfg'));
  symlinkSync(path.join(real, 'bin', 'python'), path.join(root, 'bin', 'python'));
  writeFileSync(path.join(site, 'project.pth'), `${path.join(real, 'lib', lib, 'site-packages')}\n`);
  return { bin: path.join(root, 'bin'), site };
}
