import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '../util/envVars.js';

/**
 * drift's cache folder, shared by the answer cache (functions/answerCache.ts), the outline cache
 * (pipeline/sourceCache.ts) and compiled XRD validators (validatorCache.ts). Outside the project's
 * tracked files, so nothing cached is ever committed.
 */
/** Where the cache lives: `DRIFT_CACHE_DIR`, else node_modules/.cache/drift at the project's root, else the platform's cache folder. */
export function cacheFolder(root: string, env: Environment): string {
  if (env.DRIFT_CACHE_DIR) return path.resolve(root, env.DRIFT_CACHE_DIR);
  if (existsSync(path.join(root, 'node_modules'))) return path.join(root, 'node_modules', '.cache', 'drift');
  const home = env.HOME ?? os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'drift');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'drift', 'Cache');
  return path.join(env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'drift');
}

/** False when `DRIFT_NO_CACHE` is set to anything but `0` or empty. */
export function cacheEnabled(env: Environment): boolean {
  return !env.DRIFT_NO_CACHE || env.DRIFT_NO_CACHE === '0';
}


/**
 * Older files of one provider beyond this many are removed when a new one is written (each build or
 * source tree makes a new key). Kept by when they were written, so more versions of a provider visited
 * in turn than this each evict the next one needed: the test suite's seeded versions of one provider
 * (up to 16) were rendered and analysed again in every run with 8 answers and 4 cells.
 */
const KEEP_PER_PROVIDER = 32;

/**
 * After `written` (`<provider>-<key><extension>`) was written into `folder`: removes that provider's
 * oldest files of the same kind beyond KEEP_PER_PROVIDER. One mechanism for the answer and cell caches.
 */
export function pruneProviderFiles(folder: string, written: string, extension: string): void {
  const provider = written.slice(0, written.lastIndexOf('-') + 1);
  const older = readdirSync(folder)
    .filter((name) => name !== written && name.startsWith(provider) && name.endsWith(extension) && !name.slice(provider.length).includes('-'))
    .map((name) => ({ name, mtime: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of older.slice(KEEP_PER_PROVIDER - 1)) rmSync(path.join(folder, name), { force: true });
}
