import lockfile from 'proper-lockfile';
import { DriftError } from '../errors.js';

/**
 * Other drifts editing the same file (several maintainers, a script, the update workflow) wait their
 * turn: without the lock two of them read the same file and one's change is lost. A lock whose holder
 * died is taken over once stale.
 */
const LOCK = { realpath: false, stale: 10_000, retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100 } } as const;

/** Runs `edit` holding the lock on `file` (which need not exist yet; its folder must). */
export async function underLock<T>(file: string, shown: string, edit: () => T | Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, LOCK);
  } catch (error) {
    throw new DriftError(`${shown} is locked by another drift (${(error as Error).message}); try again`);
  }
  try {
    return await edit();
  } finally {
    await release();
  }
}
