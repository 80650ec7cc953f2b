import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../goldens/atomicFile.js';

/**
 * The one reader and writer of cache entries. Writes go through the project's atomic writer
 * (goldens/atomicFile.ts), without its flushes: a reader never sees half an entry, and a killed
 * write leaves a `*.drift-tmp-<pid>` that the pruner (cache/prune.ts) removes. Reading never
 * throws: an entry that is missing, empty, cut short or not drift's is a miss.
 */

/** Writes an entry; false when it could not be written (a full or read-only disk costs only the next run's hit). */
export function writeEntry(file: string, data: string | Uint8Array): boolean {
  try {
    writeFileAtomic(file, data, { durable: false });
    return true;
  } catch {
    return false;
  }
}

/** The entry's bytes; undefined when it is missing, unreadable or empty. */
export function readEntry(file: string): Buffer | undefined {
  try {
    const data = readFileSync(file);
    return data.length > 0 ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The entry's JSON value, when it is an object that `accept` takes; else undefined (a miss). */
export function readJsonEntry<T>(file: string, accept: (value: Record<string, unknown>) => boolean = () => true): T | undefined {
  const data = readEntry(file);
  if (data === undefined) return undefined;
  try {
    const value = JSON.parse(data.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && accept(value as Record<string, unknown>) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
