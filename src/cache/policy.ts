import path from 'node:path';
import type { Environment } from '../util/envVars.js';
import { cacheFolder } from './folder.js';

/**
 * Whether drift reads and writes its caches this run, and where: resolved once at the edge (the
 * CLI's commands, `drift mcp`) from `--no-cache` and the environment, then passed down. `--no-cache`
 * and `DRIFT_NO_CACHE=1` mean the same: none of the nine caches (answers, cells, outlines, judged
 * reports, validators, documents, scalar decisions, V8 code, parsed goldens) is read or written.
 */
export interface CachePolicy {
  readonly enabled: boolean;
  /** The cache folder (cache/folder.ts), also when disabled: what a message may name. */
  readonly folder: string;
}

/** False when `DRIFT_NO_CACHE` is set to anything but `0` or empty. */
export function cacheEnabled(env: Environment): boolean {
  return !env.DRIFT_NO_CACHE || env.DRIFT_NO_CACHE === '0';
}

/** The policy of a run from `root` (the config's folder) with `--no-cache` given or not. */
export function cachePolicy(root: string, env: Environment, options: { noCache?: boolean } = {}): CachePolicy {
  return { enabled: !options.noCache && cacheEnabled(env), folder: cacheFolder(root, env) };
}

/** The folder of one cache kind, or undefined when caches are off. */
export function cacheKindFolder(policy: CachePolicy | undefined, kind: string): string | undefined {
  return policy?.enabled ? path.join(policy.folder, kind) : undefined;
}
