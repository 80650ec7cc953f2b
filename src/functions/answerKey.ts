import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Adapter } from '../config/types.js';
import { buildStamp } from '../config/documentCache.js';
import type { Environment } from '../util/envVars.js';
import { functionEnv } from './functionEnv.js';

/**
 * What a function's answers depend on besides the request, as one hash: the answer cache's key for
 * a provider (answerCache.ts). Paths enter it relative to the adapter's folder, so two checkouts of
 * the same tree (CI's, a test's temporary copy) share entries. docs/caches.md lists what it
 * covers and what it cannot see.
 */

/** Folders that are the function's by-products, not its source: a run of it writes them. */
const NOT_SOURCE = ['**/__pycache__/**', '**/*.pyc', '**/.pytest_cache/**', '**/.ruff_cache/**', '**/.mypy_cache/**', '**/.git/**', '**/node_modules/**', '**/.venv/**'];

/** A source tree larger than this is not cached: hashing it would cost more than most runs. */
const MAX_TREE_FILES = 2000;
const MAX_TREE_BYTES = 32 * 1024 * 1024;

/** Raised inside this module when a provider cannot be keyed; the provider is then not cached. */
class Unkeyable extends Error {}

/** Environment hashes of one run (pipeline/run.ts makes one per run): never kept across `drift mcp` calls, so a `pip install` between two is seen. */
export type EnvironmentHashes = Map<string, string>;

function sha(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Every file under the function's working folder, by relative path and content. Symbolic links are
 * followed: a module behind a symlinked folder, or a retargeted link, is hashed by the text it reads.
 */
function treeHash(folder: string): string {
  const files = fg.sync('**/*', { cwd: folder, onlyFiles: true, dot: true, ignore: NOT_SOURCE, followSymbolicLinks: true }).sort();
  if (files.length > MAX_TREE_FILES) throw new Unkeyable(`more than ${MAX_TREE_FILES} files`);
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of files) {
    const content = readFileSync(path.join(folder, file));
    bytes += content.length;
    if (bytes > MAX_TREE_BYTES) throw new Unkeyable(`more than ${MAX_TREE_BYTES} bytes`);
    hash.update(`${file}\u0000${content.length}\u0000`).update(content);
  }
  return hash.digest('hex');
}

/** The program a command starts: a path against its folder, a bare name (`python`) as PATH finds it. */
export function resolvedProgram(program: string, cwd: string, env: Environment): string | undefined {
  if (path.isAbsolute(program) || program.includes('/')) {
    const file = path.resolve(cwd, program);
    return existsSync(file) ? file : undefined;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.resolve(cwd, dir, program);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

/**
 * Every installed file of a site-packages folder by path, size and modification time: a package
 * reinstalled at the same version with new code (`pip install --force-reinstall`) or a file edited
 * in place changes it, where the dist-info names alone did not. Statting beats reading: a few
 * thousand files cost milliseconds, once per run (EnvironmentHashes).
 */
function installedFiles(site: string): string[] {
  const found: string[] = [];
  // A plain walk, not a glob: on a cached run nothing else loads fast-glob, and its stats cost 4× this.
  const walk = (dir: string, relative: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__' || entry.name.endsWith('.pyc')) continue;
      // Joined by hand: path.join's normalising was half the walk's CPU (a key 27 → 13 ms, bench/HISTORY.md, round 3).
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file, `${relative}${entry.name}/`);
      else {
        const stat = statSync(file);
        if (stat.isDirectory()) walk(file, `${relative}${entry.name}/`);
        else found.push(`${relative}${entry.name}\u0000${stat.size}\u0000${stat.mtimeMs}`);
      }
    }
  };
  walk(site, '');
  return found.sort();
}

/**
 * The Python environment the command runs in, when its program is a virtual environment's
 * interpreter: pyvenv.cfg (the base Python and its version), every installed file (installedFiles)
 * and each .pth file's text (editable installs point outside). Any other program is keyed by its
 * resolved path, size and modification time. `program` is resolved as the function's spawn would
 * (resolvedProgram): switching PATH from one venv to another is a new key.
 */
function environmentHash(program: string, cwd: string, env: Environment, hashes: EnvironmentHashes): string {
  const resolved = resolvedProgram(program, cwd, env);
  if (resolved === undefined) return sha(`program ${program} not found`);
  const known = hashes.get(resolved);
  if (known) return known;
  const venv = path.dirname(path.dirname(resolved));
  const config = path.join(venv, 'pyvenv.cfg');
  let text: string;
  if (existsSync(config)) {
    const parts = [readFileSync(config, 'utf8')];
    const lib = path.join(venv, 'lib');
    for (const version of existsSync(lib) ? readdirSync(lib).sort() : []) {
      const site = path.join(lib, version, 'site-packages');
      if (!existsSync(site)) continue;
      for (const entry of readdirSync(site).sort()) {
        if (entry.endsWith('.pth')) parts.push(`${version}/${entry}\u0000${readFileSync(path.join(site, entry), 'utf8')}`);
      }
      parts.push(...installedFiles(site).map((file) => `${version}/${file}`));
    }
    text = parts.join('\n');
  } else {
    const real = realpathSync(resolved);
    const stat = statSync(real);
    text = `${real}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  }
  // The environment's real folder, not the link to it: two checkouts whose .venv links to one environment share a key.
  const hash = sha(`${existsSync(config) ? realpathSync(venv) : ''}\n${text}`);
  hashes.set(resolved, hash);
  return hash;
}

/** Bump when what an entry holds or how the key is made changes. */
const FORMAT = 'drift-answers/3';

/**
 * The provider's cache key, or undefined when it cannot be made (its tree is too large or
 * unreadable): such a provider always runs its function.
 */
export function providerKey(adapter: Adapter, env: Environment, hashes: EnvironmentHashes = new Map()): string | undefined {
  try {
    const { command, cwd } = adapter.function;
    // Exactly what the function's spawn gets (process.ts): a variable it never sees keys nothing.
    const spawned = functionEnv(adapter, env);
    const relative = (file: string) => path.relative(adapter.dir, file) || '.';
    const parts = [
      FORMAT,
      `drift ${buildStamp()}`,
      `adapter ${sha(readFileSync(adapter.file))}`,
      // The loader makes the interpreter's path absolute: relative to the adapter, two checkouts share a key.
      `command ${JSON.stringify(command.map((part) => (path.isAbsolute(part) ? relative(part) : part)))} in ${relative(cwd)}`,
      `env ${JSON.stringify(Object.entries(spawned))}`,
      `tree ${treeHash(cwd)}`,
      `python ${environmentHash(command[0] ?? '', cwd, spawned, hashes)}`,
    ];
    return sha(parts.join('\n'));
  } catch (error) {
    if (error instanceof Unkeyable || (error as NodeJS.ErrnoException).code !== undefined) return undefined;
    throw error;
  }
}
