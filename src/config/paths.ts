import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files that ship with drift itself (schemas), located from the compiled module. */
export function packageFile(relative: string): string {
  return fileURLToPath(new URL(`../../${relative}`, import.meta.url));
}

/**
 * The path rule: every path a configuration file names (globs of adapters and scenarios, the goldens
 * and contract folders, an adapter's XRD and source root) must lie, once symlinks are resolved,
 * inside the config's folder or one of the `roots:` it lists. A provider.yaml that a pull request
 * adds can so never make drift read (or glob through) the rest of the machine. Paths given on the
 * command line (--config, --output, --report) are the user's own and are not checked; new-provider
 * refuses an --xrd outside the roots, since its draft names that path.
 */
export interface Roots {
  /** Real paths of the allowed folders: the config's folder first. */
  readonly folders: readonly string[];
}

/** The real path of `file`, or of its deepest existing ancestor joined with the rest (a folder drift will create). */
export function realPath(file: string): string {
  const absolute = path.resolve(file);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realPath(parent), path.basename(absolute));
  }
}

export function rootsOf(configFolder: string, listed: readonly string[] = []): Roots {
  return { folders: [...new Set([configFolder, ...listed.map((root) => path.resolve(configFolder, root))].map(realPath))] };
}

/** Whether `file` (resolved through every symlink) lies inside one of the roots. */
export function isInside(roots: Roots, file: string): boolean {
  const real = realPath(file);
  return roots.folders.some((folder) => real === folder || real.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`));
}

/** Why `file` is refused, for an error that names the config line: where it really is, and what to do. */
export function outsideProblem(roots: Roots, what: string, given: string, file: string): string {
  const real = realPath(file);
  const through = real === path.resolve(file) ? '' : ` (through a symlink: it is really ${real})`;
  return `${what} "${given}" lies outside the project${through}: paths in drift's configuration stay inside ${roots.folders.join(', ')}; move it inside, or list its folder under roots: in drift.config.yaml`;
}
