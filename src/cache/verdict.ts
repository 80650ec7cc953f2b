import { createHash } from 'node:crypto';
import path from 'node:path';
import { readJsonEntry, writeEntry } from './entry.js';
import { cacheKindFolder, type CachePolicy } from './policy.js';

/**
 * Judged reports kept between runs (`verdicts/<command>-<key>.json`): an unchanged re-run whose every
 * cell and outline would come from the caches judged the same values again. The key is everything the
 * judgement reads (pipeline/diffVerdict.ts builds its parts); an entry is written only by a run whose
 * every cell and outline came from the caches, so a verdict is a pure function of cached values and
 * the judge's inputs. Read and written through the cache's one reader and writer (entry.ts), pruned
 * with the rest (prune.ts, `diff` its provider name), bypassed by `--no-cache` like every cache.
 */

const FORMAT = 'drift-verdict/1';

/** Where one command's verdict under one key is kept; undefined when caches are off. */
export interface VerdictSpot {
  readonly file: string;
  readonly key: string;
}

/** The spot of `command`'s verdict under the hash of `parts`, or undefined when the policy keeps no cache. */
export function verdictSpot(policy: CachePolicy | undefined, command: string, parts: readonly string[]): VerdictSpot | undefined {
  const folder = cacheKindFolder(policy, 'verdicts');
  if (folder === undefined) return undefined;
  const hash = createHash('sha256').update(FORMAT);
  for (const part of parts) hash.update('\u0000').update(part);
  const key = hash.digest('hex');
  return { file: path.join(folder, `${command}-${key.slice(0, 32)}.json`), key };
}

/** The kept verdict, or undefined (a miss: missing, unreadable, of another format or key). */
export function readVerdict<T>(spot: VerdictSpot): T | undefined {
  return readJsonEntry<{ verdict: T }>(spot.file, (value) => value.format === FORMAT && value.key === spot.key && typeof value.verdict === 'object' && value.verdict !== null)?.verdict;
}

/** Keeps a verdict; a failure to write costs the next run its judgement, nothing more. */
export function writeVerdict(spot: VerdictSpot, verdict: object): void {
  writeEntry(spot.file, JSON.stringify({ format: FORMAT, key: spot.key, verdict }));
}
