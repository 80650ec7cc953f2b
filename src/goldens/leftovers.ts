/**
 * The sweep of what killed writes left under a whole folder, apart from the atomic writer itself: it
 * needs fast-glob, which the writer's other users (the caches, which bin/drift.js loads before the
 * bundle) should not load at every start.
 */
import { existsSync } from 'node:fs';
import fg from 'fast-glob';
import { sweepFiles, TEMPORARY_MARK } from './atomicFile.js';

/**
 * Removes the temporary files of writes that a killed drift never renamed, under each folder (a few
 * levels deep: goldens/<provider>/, the contract's skills/<name>/). A file whose process is still
 * running belongs to a write in progress (another drift in the same folder) and stays. Returns the
 * removed files, absolute, sorted.
 */
export function sweepLeftovers(folders: readonly string[]): string[] {
  const removed = new Set<string>();
  for (const folder of new Set(folders)) {
    if (!existsSync(folder)) continue;
    const found = fg.sync([`**/*${TEMPORARY_MARK}*`, '**/*.{yaml,md,json}.tmp-*'], {
      cwd: folder,
      absolute: true,
      onlyFiles: true,
      deep: 4,
      followSymbolicLinks: false,
      ignore: ['**/node_modules/**', '**/.venv/**', '**/__pycache__/**', '**/.git/**'],
    });
    for (const file of sweepFiles(found)) removed.add(file);
  }
  return [...removed].sort();
}
