import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '../util/envVars.js';

/**
 * drift's one cache folder. `DRIFT_CACHE_DIR` is resolved against the project's root (the folder of
 * drift.config.yaml), not the working directory, so `drift -c other/drift.config.yaml` and a run
 * from a sub-folder use the same cache. Without it: node_modules/.cache/drift at the project's root
 * when the project has node_modules, else the platform's cache folder. An empty or relative
 * XDG_CACHE_HOME/LOCALAPPDATA is ignored (XDG says so): it would put the cache in whatever folder
 * drift was run from.
 */
export function cacheFolder(root: string, env: Environment): string {
  if (env.DRIFT_CACHE_DIR) return path.resolve(root, env.DRIFT_CACHE_DIR);
  if (existsSync(path.join(root, 'node_modules'))) return path.join(root, 'node_modules', '.cache', 'drift');
  return platformCacheFolder(env);
}

/**
 * The user's cache folder for drift, shared by every project: where drift's own ruff is installed
 * (one per version, outline/formatter.ts), since an install is worth keeping across projects.
 * `DRIFT_CACHE_DIR` moves it too, against the project's root as above.
 */
export function toolFolder(root: string, env: Environment, tool: string): string {
  return path.join(env.DRIFT_CACHE_DIR ? path.resolve(root, env.DRIFT_CACHE_DIR) : platformCacheFolder(env), tool);
}

const absolute = (value: string | undefined): string | undefined => (value && path.isAbsolute(value) ? value : undefined);

function platformCacheFolder(env: Environment): string {
  const home = absolute(env.HOME) ?? absolute(env.USERPROFILE) ?? os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'drift');
  if (process.platform === 'win32') return path.join(absolute(env.LOCALAPPDATA) ?? path.join(home, 'AppData', 'Local'), 'drift', 'Cache');
  return path.join(absolute(env.XDG_CACHE_HOME) ?? path.join(home, '.cache'), 'drift');
}
