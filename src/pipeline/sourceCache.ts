import { createHash } from 'node:crypto';
import { realpathSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readJsonEntry, writeEntry } from '../cache/entry.js';
import { cacheKindFolder } from '../cache/policy.js';
import type { Adapter, Project } from '../config/types.js';
import { buildStamp } from '../config/documentCache.js';
import { ruffConfigFiles, ruffFor, type FormatterReport } from '../outline/formatter.js';
import { outlinerIdentity } from '../outline/grammar.js';
import { rememberCanonicalOutline, toCanonicalOutline } from '../outline/canonicalOutline.js';
import { OUTLINE_VERSION, type OutlineResult, type SourceText } from '../outline/types.js';
import type { Environment } from '../util/envVars.js';

/**
 * A provider's outline and ruff report kept between runs, beside the answer cache: parsing with
 * tree-sitter and running ruff twice cost more than an unchanged provider's whole cached render.
 * Keyed by everything they are made from: the source files (paths and text), drift's own build (its
 * source hash, else its version), the outline format, the outline's queries and the grammar's and
 * parser's versions (grammar.ts), the ruff beside the interpreter (path, size, modification time) and
 * every ruff configuration file from the source folder up. A report that says ruff could not run is
 * not kept. One file per provider version, `sources/<provider>-<key>.json`, pruned with the rest.
 */

const FORMAT = 'drift-sources/2';

interface Entry {
  result: Omit<OutlineResult, 'places'> & { places: Array<[string, string]> };
  formatter: FormatterReport;
  /** The outline as its golden would hold it: a warm run compares it without writing YAML. */
  canonical?: string;
}

/**
 * The file a path resolves to, with its size and modification time: a copy of the project whose .venv
 * links to one environment runs the same ruff, so it keys (and shares) the same outlines.
 */
function fileIdentity(file: string): string {
  const real = realpathSync(file);
  const stat = statSync(real);
  return `${real}\u0000${stat.size}\u0000${stat.mtimeMs}`;
}

/** The ruff configuration files ruff itself would find for this folder, each by name and text. */
function ruffConfigs(folder: string): string[] {
  return Array.from(ruffConfigFiles(folder), (file) => `${path.basename(file)}\u0000${readFileSync(file, 'utf8')}`);
}

/** Where the cached outlines live, or undefined when caching is off. */
export function sourceCacheFolder(project: Pick<Project, 'cache'>): string | undefined {
  return cacheKindFolder(project.cache, 'sources');
}

/** The entry's name: the provider and the hash of everything its outline is made from. */
export function sourceKey(adapter: Adapter, sources: SourceText[], env: Environment): string {
  const hash = createHash('sha256');
  const root = adapter.source?.root ?? adapter.function.cwd;
  const ruff = ruffFor(adapter, env);
  const outliner = sources[0] ? outlinerIdentity(path.extname(sources[0].path)) : '';
  hash.update(`${FORMAT}\n${buildStamp()}\noutline ${OUTLINE_VERSION}\n${outliner}\n${adapter.name}\n`);
  hash.update(`ruff ${ruff ? fileIdentity(ruff) : 'none'}\n${ruffConfigs(root).join('\u0000')}\n`);
  for (const source of sources) hash.update(`${source.path}\u0000${source.text.length}\u0000${source.text}\u0000`);
  return `${adapter.name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${hash.digest('hex').slice(0, 32)}`;
}

export function readCachedSource(folder: string, key: string): { result: OutlineResult; formatter: FormatterReport } | undefined {
  const entry = readJsonEntry<Entry>(path.join(folder, `${key}.json`), (value) => typeof value.result === 'object' && value.result !== null && typeof value.formatter === 'object');
  if (!entry || !Array.isArray(entry.result.places)) return undefined;
  if (entry.canonical !== undefined) rememberCanonicalOutline(entry.result.outline, entry.canonical);
  return { result: { ...entry.result, places: new Map(entry.result.places) }, formatter: entry.formatter };
}

export function writeCachedSource(folder: string, key: string, result: OutlineResult, formatter: FormatterReport): void {
  if (formatter.error !== undefined) return;
  const entry: Entry = { result: { ...result, places: [...result.places] }, formatter, canonical: toCanonicalOutline(result.outline) };
  // Not kept when it cannot be written: the next run outlines again.
  writeEntry(path.join(folder, `${key}.json`), JSON.stringify(entry));
}
