import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Adapter } from '../config/types.js';
import { packageFile } from '../config/paths.js';

/**
 * What a function's answers depend on besides the request, as one hash: the answer cache's key for
 * a provider (answerCache.ts). Paths enter it relative to the adapter's folder, so two checkouts of
 * the same tree (CI's, a test's temporary copy) share entries. docs/performance.md lists what it
 * covers and what it cannot see.
 */

/** Folders that are the function's by-products, not its source: a run of it writes them. */
const NOT_SOURCE = ['**/__pycache__/**', '**/*.pyc', '**/.pytest_cache/**', '**/.ruff_cache/**', '**/.mypy_cache/**', '**/.git/**', '**/node_modules/**', '**/.venv/**'];

/** A source tree larger than this is not cached: hashing it would cost more than most runs. */
const MAX_TREE_FILES = 2000;
const MAX_TREE_BYTES = 32 * 1024 * 1024;

/** Raised inside this module when a provider cannot be keyed; the provider is then not cached. */
class Unkeyable extends Error {}

const environments = new Map<string, string>();

function sha(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Every file under the function's working folder, by relative path and content. */
function treeHash(folder: string): string {
  const files = fg.sync('**/*', { cwd: folder, onlyFiles: true, dot: true, ignore: NOT_SOURCE, followSymbolicLinks: false }).sort();
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

/**
 * The Python environment the command runs in, when its program is a virtual environment's
 * interpreter: pyvenv.cfg (the base Python and its version) and every installed distribution's
 * dist-info name (name and version), with each .pth file's text (editable installs point outside).
 * Any other program is keyed by its resolved path, size and modification time.
 */
function environmentHash(program: string, cwd: string): string {
  const resolved = path.isAbsolute(program) || program.includes('/') ? path.resolve(cwd, program) : undefined;
  if (resolved === undefined || !existsSync(resolved)) return sha(`program ${program}`);
  const known = environments.get(resolved);
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
        if (entry.endsWith('.dist-info')) parts.push(`${version}/${entry}`);
        else if (entry.endsWith('.pth')) parts.push(`${version}/${entry}\u0000${readFileSync(path.join(site, entry), 'utf8')}`);
      }
    }
    text = parts.join('\n');
  } else {
    const real = realpathSync(resolved);
    const stat = statSync(real);
    text = `${real}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  }
  const hash = sha(text);
  environments.set(resolved, hash);
  return hash;
}

let driftVersion: string | undefined;

function version(): string {
  driftVersion ??= (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  return driftVersion;
}

/** Bump when what an entry holds or how the key is made changes. */
const FORMAT = 'drift-answers/2';

/**
 * The provider's cache key, or undefined when it cannot be made (its tree is too large or
 * unreadable): such a provider always runs its function.
 */
export function providerKey(adapter: Adapter): string | undefined {
  try {
    const { command, cwd, env } = adapter.function;
    const relative = (file: string) => path.relative(adapter.dir, file) || '.';
    const parts = [
      FORMAT,
      `drift ${version()}`,
      `adapter ${sha(readFileSync(adapter.file))}`,
      // The loader makes the interpreter's path absolute: relative to the adapter, two checkouts share a key.
      `command ${JSON.stringify(command.map((part) => (path.isAbsolute(part) ? relative(part) : part)))} in ${relative(cwd)}`,
      `env ${JSON.stringify(Object.entries(env).sort())}`,
      `tree ${treeHash(cwd)}`,
      `python ${environmentHash(command[0] ?? '', cwd)}`,
    ];
    return sha(parts.join('\n'));
  } catch (error) {
    if (error instanceof Unkeyable || (error as NodeJS.ErrnoException).code !== undefined) return undefined;
    throw error;
  }
}
