import { existsSync } from 'node:fs';
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

