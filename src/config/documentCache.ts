import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readJsonEntry, writeEntry } from '../cache/entry.js';
import { type CachePolicy, cacheKindFolder } from '../cache/policy.js';
import { packageFile } from './paths.js';

/**
 * Configuration documents (adapters, scenarios, XRDs) kept parsed and validated in drift's cache
 * folder, by the hash of their text, the schema they passed and drift's build: parsing them with the
 * yaml library cost most of loading a project, `drift list` included. A hit skips parsing and the schema
 * check (the text passed it when it was kept); a document that fails either is never kept, so its
 * error is always found again. The file:line locator of a hit parses the text only when asked.
 * Where they are kept is the run's cache policy (cache/policy.ts), resolved at the edge and passed to
 * each reader: nothing here remembers a folder between calls.
 */

const FORMAT = 'drift-documents/1';
let stamp: string | undefined;
let versions: string | undefined;
const require = createRequire(import.meta.url);

/** The parsed-document cache of one run's policy: its entries' keys, reader, writer and pruner. */
export interface DocumentCache {
  /** The entry's key: the hash of `text`, the schema (`schema` identifies its text) and drift's build. */
  key(text: string, schema: string): string;
  read(key: string): unknown;
  /** Keeps a parsed, valid document, unless JSON cannot hold it exactly (.inf, .nan, -0). */
  write(key: string, data: unknown): void;
  /**
   * Removes the oldest entries whose keys start with `prefix`, beyond the `keep` newest, sparing `kept`:
   * for an entry each build writes under a new key (the scalar decisions), so rebuilding does not fill
   * the folder.
   */
  prune(prefix: string, kept: string, keep: number): void;
}

/** The document cache under `cache`, or undefined when caches are off (or no policy was given): parsed every time. */
export function documentCache(cache: CachePolicy | undefined): DocumentCache | undefined {
  const documents = cacheKindFolder(cache, 'documents');
  if (documents === undefined) return undefined;
  const entryFile = (key: string) => path.join(documents, `${key}.json`);
  return {
    key: (text, schema) => createHash('sha256').update(`${FORMAT}\n${buildStamp()}\n${schema}\n`).update(text).digest('hex'),
    read: (key) => readJsonEntry<{ data: unknown }>(entryFile(key), (value) => 'data' in value)?.data,
    write(key, data) {
      if (!jsonExact(data)) return;
      // Not kept when it cannot be written: the next load parses it again.
      writeEntry(entryFile(key), JSON.stringify({ data }));
    },
    prune: (prefix, kept, keep) => pruneByPrefix(documents, prefix, kept, keep),
  };
}

/** drift's build: the hash of the sources it was built from when the build wrote one, else the package version. */
export function buildStamp(): string {
  if (stamp === undefined) {
    const written = packageFile('dist/.source-hash');
    stamp = existsSync(written) ? readFileSync(written, 'utf8').trim() : versionIn(packageFile('package.json'));
  }
  return stamp;
}

/** The version a package.json names. */
const versionIn = (packageJson: string): string => (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;

/** The installed CEL and ajv versions: what a cached check's outcome depends on beyond drift's own build. */
export function libraryVersions(): string {
  // cel-js exports no package.json: it sits one folder above its entry point.
  const cel = path.join(path.dirname(path.dirname(require.resolve('@marcbachmann/cel-js'))), 'package.json');
  versions ??= `cel-js ${versionIn(cel)}, ajv ${versionIn(require.resolve('ajv/package.json'))}`;
  return versions;
}

let yaml: string | undefined;

/** The installed yaml library's version: what a parsed golden, or how it writes a scalar, depends on beyond drift's own build. */
export function yamlVersion(): string {
  yaml ??= versionIn(require.resolve('yaml/package.json'));
  return yaml;
}

function pruneByPrefix(documents: string, prefix: string, kept: string, keep: number): void {
  try {
    const others = readdirSync(documents)
      .filter((name) => name.startsWith(prefix) && name.endsWith('.json') && name !== `${kept}.json`)
      .map((name) => ({ name, mtime: statSync(path.join(documents, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { name } of others.slice(keep)) rmSync(path.join(documents, name), { force: true });
  } catch {
    // Another process pruned beside this one: what is left is pruned next time.
  }
}

function jsonExact(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonExact);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(jsonExact);
  return false;
}
