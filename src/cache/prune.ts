import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { sweepFiles, TEMPORARY_MARK } from '../goldens/atomicFile.js';

/**
 * The one pruner of drift's cache folder, run at the end of every run that may have written to it
 * (cli/main.ts, each `drift mcp` tool call). The bound, documented in docs/caches.md:
 *
 * - versions kept per provider: the newest CACHE_BOUND.perProvider entries of each provider in each
 *   kind keyed by provider (answers, cells, sources); every change of a function's source, environment
 *   or drift's build makes a new version;
 * - age: an entry not written for CACHE_BOUND.maxAgeDays days goes (a hit does not renew it, so an
 *   entry older than that is rebuilt once);
 * - size: past CACHE_BOUND.maxBytes in all, the oldest entries go first until the folder is under it;
 * - leftovers of killed writes (`*.drift-tmp-<pid>` of a process that is gone, the older `*.tmp`).
 *
 * Only drift's own kinds are pruned; anything else in the folder (drift's own ruff under
 * DRIFT_CACHE_DIR, a user's file) is left alone.
 */
export const CACHE_BOUND = { perProvider: 32, maxAgeDays: 30, maxBytes: 256 * 1024 * 1024 } as const;

/** Sub-folders of the cache holding entries; '' is the folder itself (answers, V8 code). */
const KINDS = ['', 'cells', 'sources', 'documents', 'validators', 'verdicts'];
/** Entry names: `<provider>-<32 hex>.<extension>` are one provider's versions. */
const PROVIDER_ENTRY = /^(.+)-[0-9a-f]{32}\.(answers|json)$/;
const ENTRY = /\.(answers|json|cjs|v8)$/;
const LEGACY_TEMPORARY = /\.\d+\.tmp$/;
/** A legacy temporary file younger than this may be a running drift's write. */
const LEGACY_GRACE_MS = 10 * 60 * 1000;

interface Found {
  file: string;
  bytes: number;
  mtime: number;
}

export interface PruneBound {
  perProvider: number;
  maxAgeDays: number;
  maxBytes: number;
}

/** Prunes `folder` to `bound`; returns the files removed, sorted. Never throws: another drift may prune beside it. */
export function pruneCache(folder: string, bound: PruneBound = CACHE_BOUND, now = Date.now()): string[] {
  if (!existsSync(folder)) return [];
  const removed = new Set<string>();
  const entries: Found[] = [];
  const remove = (file: string) => {
    rmSync(file, { force: true });
    removed.add(file);
  };
  try {
    for (const kind of KINDS) {
      const dir = path.join(folder, kind);
      const versions = new Map<string, Found[]>();
      for (const name of safeList(dir)) {
        const file = path.join(dir, name);
        const stat = safeStat(file);
        if (!stat?.isFile()) continue;
        if (name.includes(TEMPORARY_MARK)) {
          for (const gone of sweepFiles([file])) removed.add(gone);
          continue;
        }
        if (LEGACY_TEMPORARY.test(name)) {
          if (now - stat.mtimeMs > LEGACY_GRACE_MS) remove(file);
          continue;
        }
        if (!ENTRY.test(name)) continue;
        const found = { file, bytes: stat.size, mtime: stat.mtimeMs };
        if (now - found.mtime > bound.maxAgeDays * 86_400_000) {
          remove(file);
          continue;
        }
        const provider = kind === 'documents' || kind === 'validators' ? undefined : PROVIDER_ENTRY.exec(name)?.[1];
        if (provider !== undefined) versions.set(provider, [...(versions.get(provider) ?? []), found]);
        else entries.push(found);
      }
      for (const list of versions.values()) {
        list.sort(newestFirst);
        for (const old of list.slice(bound.perProvider)) remove(old.file);
        entries.push(...list.slice(0, bound.perProvider));
      }
    }
    entries.sort(newestFirst);
    let bytes = 0;
    for (const entry of entries) {
      bytes += entry.bytes;
      if (bytes > bound.maxBytes) remove(entry.file);
    }
  } catch {
    // Removed beside us by another drift: what is left is pruned next time.
  }
  return [...removed].sort();
}

/** Marks when the folder was last pruned: its time, set after the prune, is compared with the kinds' folders'. */
const PRUNED = '.pruned';
/** However quiet the folder, it is pruned at least this often, so the age bound holds. */
const QUIET_PRUNE_MS = 86_400_000;

/**
 * The pruner as a run ends (cli/main.ts, each drift mcp call): only when an entry was written or
 * removed since the last prune, which changes its folder's time. An unchanged re-run writes nothing,
 * and six stats then stand in for a walk that stats every entry. A folder's time comes from the
 * kernel's coarse clock: a write within one tick (a few ms) of a prune may wait for a later run's.
 */
export function pruneAfterRun(folder: string, bound: PruneBound = CACHE_BOUND, now = Date.now()): string[] {
  const stamp = path.join(folder, PRUNED);
  const last = safeStat(stamp)?.mtimeMs;
  if (last !== undefined && now - last < QUIET_PRUNE_MS && KINDS.every((kind) => (safeStat(path.join(folder, kind))?.mtimeMs ?? 0) <= last)) return [];
  const removed = pruneCache(folder, bound, now);
  try {
    // Created (once) before its time is set: its creation changes the folder's time, its time after that does not.
    closeSync(openSync(stamp, 'a'));
    const after = new Date();
    utimesSync(stamp, after, after);
  } catch {
    // A read-only cache folder is pruned again next time.
  }
  return removed;
}

const newestFirst = (a: Found, b: Found) => b.mtime - a.mtime || a.file.localeCompare(b.file);

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeStat(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
