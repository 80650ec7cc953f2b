import path from 'node:path';
import type { Adapter, Project } from '../config/types.js';
import { runFormatter, type FormatterReport } from '../outline/formatter.js';
import { parserFor } from '../outline/grammar.js';
import { buildOutline } from '../outline/outline.js';
import { checkDepth, readSources } from '../outline/read.js';
import type { OutlineResult, Places, SourceText } from '../outline/types.js';
import type { OnEvent, RunEvent } from './events.js';
import { readCachedSource, sourceCacheFolder, sourceKey, writeCachedSource } from './sourceCache.js';

/**
 * The providers' code, beside their behaviour: read every adapter's source, outline it and run the
 * formatter on it, concurrently with rendering. judge.ts judges it once every skeleton is known (a
 * role comes from the skeletons, the function composing it from the outline).
 */

export interface ProjectSources {
  adapter: Adapter;
  sources: SourceText[];
  /** The outline and ruff report of exactly these texts, from the cache (sourceCache.ts). */
  cached?: { result: OutlineResult; formatter: FormatterReport };
}

export interface OutlinedSource {
  adapter: Adapter;
  result: OutlineResult;
  formatter: FormatterReport;
}

/**
 * Source texts already read this run, by provider: those the verdict's key was made from
 * (diffVerdict.ts), so a miss judges the very texts it was keyed by and reads no file twice.
 */
export type KnownTexts = ReadonlyMap<string, SourceText[]>;

const textsOf = (adapter: Adapter, texts: KnownTexts | undefined) => texts?.get(adapter.name) ?? readSources(adapter, { depth: false });

/**
 * Reads every adapter's source. Fast, and done before anything renders: source drift cannot outline
 * (a language without a grammar) stops the run with exit 2, naming the adapter, and changes nothing.
 */
export async function readProjectSources(project: Pick<Project, 'adapters' | 'cache' | 'env'>, texts?: KnownTexts): Promise<ProjectSources[]> {
  const folder = sourceCacheFolder(project);
  const read = await Promise.all(
    project.adapters.map(async (adapter): Promise<ProjectSources> => {
      const sources = await textsOf(adapter, texts);
      if (sources.length === 0) return { adapter, sources };
      // Texts the cache has an outline of passed the depth check when it was made: only a miss is parsed for it.
      const cached = folder === undefined ? undefined : readCachedSource(folder, sourceKey(adapter, sources, project.env));
      if (cached) return { adapter, sources, cached };
      await checkDepth(adapter.source?.root ?? adapter.function.cwd, sources);
      return { adapter, sources };
    }),
  );
  return read.filter((entry) => entry.sources.length > 0);
}

/** Outlines and formatter reports, every provider at once: parsing takes milliseconds, ruff one short process per tool. */
export async function outlineSources(read: ProjectSources[], project: Pick<Project, 'cache' | 'config' | 'env'>, onEvent?: OnEvent): Promise<OutlinedSource[]> {
  const { env } = project;
  const folder = sourceCacheFolder(project);
  const outlined = await Promise.all(
    read.map(async ({ adapter, sources, cached }) => {
      // An unchanged provider's outline and ruff report from the cache (sourceCache.ts): no parse, no ruff.
      if (cached) {
        const hit = { adapter, ...cached };
        onEvent?.(outlinedEvent(hit));
        return hit;
      }
      // ruff runs in its own processes meanwhile; parsing is synchronous, so each provider waits its
      // turn on the event loop and the renders' answers are read in between.
      const formatting = runFormatter(adapter, sources.map((source) => source.path), env, project.config.root);
      const parse = await parserFor(path.extname(sources[0]!.path));
      await new Promise((resolve) => setImmediate(resolve));
      const result = buildOutline(adapter.name, sources, parse);
      const outlined = { adapter, result, formatter: await formatting };
      if (folder !== undefined) writeCachedSource(folder, sourceKey(adapter, sources, env), outlined.result, outlined.formatter);
      onEvent?.(outlinedEvent(outlined));
      return outlined;
    }),
  );
  return outlined;
}

/** A stand-in's source as shown: its adapter (for its root) and the places of its text on disk. */
export interface ShownSource {
  adapter: Adapter;
  places: Places;
}

/**
 * Where the providers a `drift diff -p` run does not render have their code today, by provider: only
 * for the file:line a finding shows of a convention's example there, since their facts stay their
 * outline goldens' (the verdict is judged against what was committed). From the outline cache when it
 * holds these texts, else parsed (no ruff, nothing kept: a full run keeps it). A provider whose source
 * cannot be read or outlined is left out and shown by its name alone, as before: never a failed run.
 */
export async function standInPlaces(adapters: readonly Adapter[], project: Pick<Project, 'cache' | 'env'>, texts?: KnownTexts): Promise<Map<string, ShownSource>> {
  const folder = sourceCacheFolder(project);
  const shown = await Promise.all(
    adapters.map(async (adapter): Promise<[string, ShownSource] | undefined> => {
      try {
        const sources = await textsOf(adapter, texts);
        if (sources.length === 0) return undefined;
        const cached = folder === undefined ? undefined : readCachedSource(folder, sourceKey(adapter, sources, project.env));
        if (cached) return [adapter.name, { adapter, places: cached.result.places }];
        await checkDepth(adapter.source?.root ?? adapter.function.cwd, sources);
        const parse = await parserFor(path.extname(sources[0]!.path));
        return [adapter.name, { adapter, places: buildOutline(adapter.name, sources, parse).places }];
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(shown.filter((entry) => entry !== undefined));
}

/** What --verbose says of a provider's outline: its files, definitions, parse and formatter times. */
function outlinedEvent({ adapter, result, formatter }: OutlinedSource): RunEvent {
  const files = Object.values(result.outline.files);
  const definitions = files.reduce((sum, file) => sum + Object.keys(file.functions).length + Object.values(file.classes).reduce((n, cls) => n + 1 + Object.keys(cls.methods).length, 0), 0);
  return { type: 'source-outlined', provider: adapter.name, files: files.length, definitions, ms: result.ms, formatterMs: formatter.ms, ruff: formatter.ruff?.describe ?? 'no ruff', ...(formatter.note ? { note: formatter.note } : {}) };
}
