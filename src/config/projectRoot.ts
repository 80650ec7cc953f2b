import path from 'node:path';

export const CONFIG_FILE = 'drift.config.yaml';

/** The folder drift.config.yaml is (or would be) in: what the cache folder and DRIFT_CACHE_DIR hang on, known before the config is read. */
export function projectRoot(configPath: string | undefined, cwd: string): string {
  return path.dirname(configPath ? path.resolve(cwd, configPath) : path.join(cwd, CONFIG_FILE));
}
