import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readVerdict, verdictSpot, writeVerdict, type VerdictSpot } from '../cache/verdict.js';
import { buildStamp } from '../config/documentCache.js';
import type { Adapter, Project } from '../config/types.js';
import { providerKey, type EnvironmentHashes } from '../functions/answerKey.js';
import { committedGoldens } from '../git/changes.js';
import { readSources } from '../outline/read.js';
import type { SourceText } from '../outline/types.js';
import { buildReport, type Report } from '../report/model.js';
import { timelinesOf } from '../report/timeline.js';
import { speedLayers } from '../util/speedLayers.js';
import { portable } from './cellCache.js';
import { diffProject, type DiffInput } from './diffRun.js';
import { goldensOf, isFiltered, type Filters } from './goldens.js';
import { sourceKey } from './sourceCache.js';

/**
 * `drift diff`'s judged report, from the verdict cache (cache/verdict.ts) when nothing it is judged
 * from changed: an unchanged re-run then reads no cell, outline or golden state and judges nothing.
 * On a miss, the run as ever, its report kept when every cell and outline came from the caches.
 */

export interface DiffReport {
  report: Report;
  /** Why a provider's function would not start (exit 2); a run with any is never kept. */
  errors: string[];
  /** Temporary files an interrupted write had left in the goldens folder, now removed. */
  swept: string[];
}

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A file's content hash; what cannot be read (a link to a folder) by that fact. */
function contentOf(file: string): string {
  try {
    return sha(readFileSync(file));
  } catch (error) {
    return `unreadable ${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/**
 * Every file of the goldens folder and its provider folders, by path and content: the skeleton and
 * outline goldens (the rendered providers', the stand-ins', obsolete ones), accepted.yaml and
 * conventions.yaml. The key is made before the sweep: a temporary file an interrupted write left is one
 * more part, so that run misses and sweeps it (a verdict is never kept by a run that swept).
 */
function goldenFiles(dir: string): string[] {
  const parts: string[] = [];
  const walk = (folder: string, relative: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      parts.push(`${relative} unreadable`);
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory() && depth > 0) walk(file, `${relative}${entry.name}/`, depth - 1);
      else if (!entry.isDirectory()) parts.push(`${relative}${entry.name} ${contentOf(file)}`);
    }
  };
  walk(dir, '', 1);
  return parts;
}

/**
 * The parts of the verdict's key: drift's build, the run's policy and filters, the configuration,
 * every rendered provider's cell-cache key (its answer key: source tree, Python environment,
 * adapter, drift's build; the adapter and each scenario as loaded; the cells' options), its outline
 * key (source texts, ruff, queries, grammar), each unrendered provider's outline key (where its
 * examples' file:lines are read), every golden file's bytes, and in a full run the
 * providers whose goldens git has committed (the established ones, compare/tipped.ts). Undefined
 * when a provider cannot be keyed: its cells are never cached either.
 */
interface Keyed {
  parts: string[];
  /** What a miss's run takes instead of making it again. */
  known: NonNullable<DiffInput['known']>;
}

async function verdictParts(full: Project, project: Project, filters: Filters): Promise<Keyed | undefined> {
  const root = project.config.root;
  const hashes: EnvironmentHashes = new Map();
  const parts = [
    `build ${buildStamp()} node ${process.version}`,
    `strict ${project.policy.run.strict}`,
    `filters ${JSON.stringify(filters)}`,
    `config ${portable(full.config, root)}`,
    // The cells' options as run.ts makes them for a diff.
    `probes ${project.env.DRIFT_PROBES === 'empty' ? 'empty' : 'converged'}`,
    `providers ${JSON.stringify(full.adapters.map((adapter) => adapter.name))}`,
    `scenarios ${JSON.stringify(full.scenarios.map((scenario) => scenario.name))}`,
    ...project.scenarios.map((scenario) => `scenario ${portable(scenario, root)}`),
  ];
  const keys = new Map<string, string | undefined>();
  const texts = new Map<string, SourceText[]>();
  for (const adapter of project.adapters) {
    const key = providerKey(adapter, project.env, hashes);
    keys.set(adapter.name, key);
    if (key === undefined) return undefined;
    const sources = await readSources(adapter, { depth: false });
    texts.set(adapter.name, sources);
    parts.push(`provider ${adapter.name} ${key} ${portable(adapter, root)}`, `sources ${sources.length > 0 ? sourceKey(adapter, sources, project.env) : 'none'}`);
  }
  // The providers not rendered are judged by their goldens, but their examples' file:lines come from
  // their source on disk (sourcesRun.ts `standInPlaces`): a line moved there is another report.
  const rendered = new Set(project.adapters.map((adapter) => adapter.name));
  for (const adapter of full.adapters) if (!rendered.has(adapter.name)) parts.push(`stand-in ${adapter.name} ${await standInKey(adapter, project, texts)}`);
  const goldens = path.resolve(root, project.config.goldens);
  parts.push(...goldenFiles(goldens).map((file) => `golden ${file}`));
  const others = full.adapters.length - project.adapters.length;
  if (others === 0 && !isFiltered(filters)) {
    const committed = await committedGoldens(goldens, project.adapters.map((adapter) => adapter.name), project.env);
    parts.push(`committed ${committed ? JSON.stringify([...committed].sort()) : 'unknown'}`);
    return { parts, known: { keys, texts, committed: { set: committed } } };
  }
  return { parts, known: { keys, texts } };
}

/** A stand-in's outline key, what its shown places are made from (its texts kept into `texts`); what cannot be read shows no places, and says so. */
async function standInKey(adapter: Adapter, project: Project, texts: Map<string, SourceText[]>): Promise<string> {
  try {
    const sources = await readSources(adapter, { depth: false });
    texts.set(adapter.name, sources);
    return sources.length > 0 ? sourceKey(adapter, sources, project.env) : 'none';
  } catch {
    return 'unreadable';
  }
}

/** The spot of this diff's verdict; undefined when caches are off, the layer is, or a provider cannot be keyed. */
async function spotOf(full: Project, project: Project, filters: Filters): Promise<{ spot: VerdictSpot; known: Keyed['known'] } | undefined> {
  if (!project.cache?.enabled || !speedLayers().verdictCache) return undefined;
  const keyed = await verdictParts(full, project, filters);
  const spot = keyed && verdictSpot(project.cache, 'diff', keyed.parts);
  return spot && keyed && { spot, known: keyed.known };
}

/**
 * The diff's report: kept (`keep`: the command's output needs nothing but the report, no `--verbose`
 * timings) and unchanged, read; else judged, and kept when it may be.
 */
export async function diffReport(input: DiffInput & { keep: boolean; changedRun?: Report['changed'] }): Promise<DiffReport> {
  const { full, project, filters, changedRun, keep } = input;
  const keyed = keep && input.env === undefined ? await spotOf(full, project, filters) : undefined;
  const spot = keyed?.spot;
  const kept = spot && readVerdict<{ report: Report }>(spot);
  if (kept) return { report: kept.report, errors: [], swept: goldensOf(project).sweep() };
  const { run, findings, candidates, outlined, swept, notes, fromCache } = await diffProject({ ...input, ...(keyed ? { known: keyed.known } : {}) });
  const report = buildReport(
    project.adapters.map((a) => a.name),
    project.scenarios.map((s) => s.name),
    findings,
    {
      sources: outlined.map((source) => source.adapter.name),
      candidates: candidates.map((candidate) => ({ facet: candidate.facet, subject: candidate.subject, value: candidate.words })),
      ...(changedRun ? { changed: changedRun } : {}),
      notes,
      timelines: timelinesOf(run.cells),
    },
  );
  const errors = run.providers.flatMap((provider) => (provider.error ? [provider.error] : []));
  // A verdict judged from fresh renders or outlines is not kept: the next run, reading them back from the caches, keeps its own.
  if (spot && fromCache && errors.length === 0 && swept.length === 0) writeVerdict(spot, { report });
  return { report, errors, swept };
}
