import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { readEntry, writeEntry } from '../cache/entry.js';

/**
 * drift's CLI loaded from its one-file CommonJS bundle (scripts/bundle.mjs) with V8's code cache:
 * a cold process otherwise parses and compiles, function by function, the same few megabytes of
 * JavaScript on every run (Node 20 has no module compile cache; V8 caches code only for a script).
 * The cache is written once per build and command, after a run, so it holds every function that
 * run compiled, not only the top level (docs/caches.md).
 */

/** Where the cached code is kept and which run it is for; undefined: compile every time. */
export interface CodeCacheSpot {
  folder: string;
  /** The command (`diff`, `list`, …): each compiles different functions, so each has its own cache. */
  command: string;
  /** What the compiled code depends on beyond the bundle's own file: V8 flags, `--no-cache`. */
  variant: string;
}

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** True when V8 took the compiled code from the cache. */
  fromCache: boolean;
  /** Writes the cache after the run, when none was accepted at the start. */
  keep(): void;
}

const FORMAT = 'drift-code/1';

/** The global options that take a value (main.ts): what follows them is not the command. */
const VALUED = new Set(['-c', '--config', '-j', '--concurrency']);

/**
 * The cache of a run with these arguments (after `node drift.js`): named by its command and the V8
 * flags; undefined under `--no-cache`, which reads and writes no cache, this one included.
 */
export function codeCacheSpot(folder: string, args: readonly string[], flags: readonly string[]): CodeCacheSpot | undefined {
  if (args.includes('--no-cache')) return undefined;
  let command = 'none';
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (VALUED.has(arg)) index++;
    else if (!arg.startsWith('-')) {
      command = arg;
      break;
    }
  }
  return { folder, command, variant: flags.join(' ') };
}

const digest = (parts: readonly unknown[]): string => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 12);

/**
 * The cache file's name: `code-<command>-<variant>-<install>-<build>.v8`, the install a digest of the
 * bundle's path, the build one of its content (a same-size edit with its modification time kept is
 * a new build; V8 itself checks only the source's length) and Node's version. A build's file
 * replaces the older builds' of the same install, command and variant.
 */
function cacheFileName(bundle: string, source: string, spot: CodeCacheSpot): string {
  return `code-${spot.command.replace(/[^a-z0-9]/gi, '_')}-${digest([FORMAT, spot.variant])}-${digest([bundle])}-${digest([source, process.version, process.arch])}.v8`;
}

/** Written by the cache's one writer, so a concurrent run reads a whole file or none; older builds' files go. */
function writeCache(folder: string, name: string, data: Buffer): void {
  if (!writeEntry(path.join(folder, name), data)) return; // an unwritable cache folder costs the next run its compile time, nothing more
  try {
    const others = name.slice(0, name.lastIndexOf('-') + 1);
    for (const older of readdirSync(folder)) if (older !== name && older.startsWith(others) && older.endsWith('.v8')) rmSync(path.join(folder, older), { force: true });
  } catch {
    // Pruned beside us by another drift.
  }
}

/** Runs the bundle as Node runs a CommonJS module, its compiled code taken from the cache when V8 accepts it. */
export function loadBundle(bundle: string, spot: CodeCacheSpot | undefined): LoadedBundle {
  // ASCII only (scripts/bundle.mjs escapes the rest): Latin-1 is the cheapest decoding of it.
  const source = readFileSync(bundle, 'latin1');
  const name = spot && cacheFileName(bundle, source, spot);
  const cachedData = spot && name ? readEntry(path.join(spot.folder, name)) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    fromCache,
    keep: () => {
      if (spot && name && !fromCache) writeCache(spot.folder, name, script.createCachedData());
    },
  };
}
