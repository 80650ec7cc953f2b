import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Adapter, Project } from '../config/types.js';
import { cacheEnabled, cacheFolder } from '../config/cacheFolder.js';
import { buildStamp } from '../config/documentCache.js';
import { ruffConfigFiles, ruffFor, type FormatterReport } from '../outline/formatter.js';
import { rememberCanonicalOutline, toCanonicalOutline } from '../outline/canonicalOutline.js';
import { OUTLINE_VERSION, type OutlineResult, type SourceText } from '../outline/types.js';
import type { Environment } from '../util/envVars.js';

/**
 * A provider's outline and ruff report kept between runs, beside the answer cache: parsing with
 * tree-sitter and running ruff twice cost more than an unchanged provider's whole cached render.
 * Keyed by everything they are made from: the source files (paths and text), drift's own build (its
 * source hash, else its version), the outline format, the grammar's and parser's package versions,
 * the ruff beside the interpreter (path, size, modification time) and every ruff configuration file
 * from the source folder up. A report that says ruff could not run is not kept.
 */

const FORMAT = 'drift-sources/1';
const require = createRequire(import.meta.url);

interface Entry {
  result: Omit<OutlineResult, 'places'> & { places: Array<[string, string]> };
  formatter: FormatterReport;
  /** The outline as its golden would hold it: a warm run compares it without writing YAML. */
  canonical?: string;
}


function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
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
export function sourceCacheFolder(project: Pick<Project, 'answerCache' | 'config' | 'env'>): string | undefined {
  if (project.answerCache === false) return undefined;
  if (project.answerCache === undefined && !cacheEnabled(project.env)) return undefined;
  return path.join(project.answerCache ?? cacheFolder(project.config.root, project.env), 'sources');
}

export function sourceKey(adapter: Adapter, sources: SourceText[], env: Environment): string {
  const hash = createHash('sha256');
  const root = adapter.source?.root ?? adapter.function.cwd;
  const ruff = ruffFor(adapter, env);
  hash.update(`${FORMAT}\n${buildStamp()}\noutline ${OUTLINE_VERSION}\n${packageVersion('web-tree-sitter')} ${packageVersion('tree-sitter-python')}\n${adapter.name}\n`);
  hash.update(`ruff ${ruff ? fileIdentity(ruff) : 'none'}\n${ruffConfigs(root).join('\u0000')}\n`);
  for (const source of sources) hash.update(`${source.path}\u0000${source.text.length}\u0000${source.text}\u0000`);
  return hash.digest('hex');
}

export function readCachedSource(folder: string, key: string): { result: OutlineResult; formatter: FormatterReport } | undefined {
  try {
    const entry = JSON.parse(readFileSync(path.join(folder, `${key}.json`), 'utf8')) as Entry;
    if (entry.canonical !== undefined) rememberCanonicalOutline(entry.result.outline, entry.canonical);
    return { result: { ...entry.result, places: new Map(entry.result.places) }, formatter: entry.formatter };
  } catch {
    return undefined;
  }
}

export function writeCachedSource(folder: string, key: string, result: OutlineResult, formatter: FormatterReport): void {
  if (formatter.error !== undefined) return;
  const entry: Entry = { result: { ...result, places: [...result.places] }, formatter, canonical: toCanonicalOutline(result.outline) };
  const file = path.join(folder, `${key}.json`);
  try {
    mkdirSync(folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, file);
  } catch {
    // Not kept: the next run outlines again.
  }
}
