import path from 'node:path';
import { parse } from 'yaml';
import type { Finding } from '../compare/findings.js';
import { judgeSources, type OutlinedProvider } from '../compare/sources.js';
import type { Adapter, Project } from '../config/types.js';
import { runFormatter, type FormatterReport } from '../outline/formatter.js';
import { parserFor } from '../outline/grammar.js';
import { buildOutline } from '../outline/outline.js';
import { readSources } from '../outline/read.js';
import { OUTLINE_VERSION, type Outline, type OutlineResult, type SourceText } from '../outline/types.js';
import type { Skeleton } from '../skeleton/types.js';
import { isObject } from '../util/objects.js';

/**
 * The providers' code, beside their behaviour: read every adapter's source, outline it and run the
 * formatter on it, concurrently with rendering; then judge it once every skeleton is known (a role
 * comes from the skeletons, the function composing it from the outline).
 */

export interface ProjectSources {
  adapter: Adapter;
  sources: SourceText[];
}

export interface OutlinedSource {
  adapter: Adapter;
  result: OutlineResult;
  formatter: FormatterReport;
}

/**
 * Reads every adapter's source. Fast, and done before anything renders: source drift cannot outline
 * (a language without a grammar) stops the run with exit 2, naming the adapter, and changes nothing.
 */
export async function readProjectSources(project: Project): Promise<ProjectSources[]> {
  const read = await Promise.all(project.adapters.map(async (adapter) => ({ adapter, sources: await readSources(adapter) })));
  return read.filter((entry) => entry.sources.length > 0);
}

/** Outlines and formatter reports, every provider at once: parsing takes milliseconds, ruff one short process per tool. */
export async function outlineSources(read: ProjectSources[]): Promise<OutlinedSource[]> {
  return Promise.all(
    read.map(async ({ adapter, sources }) => {
      // ruff runs in its own processes meanwhile; parsing is synchronous, so each provider waits its
      // turn on the event loop and the renders' answers are read in between.
      const formatting = runFormatter(adapter, sources.map((source) => source.path));
      const parse = await parserFor(path.extname(sources[0]!.path));
      await new Promise((resolve) => setImmediate(resolve));
      const result = buildOutline(adapter.name, sources, parse);
      return { adapter, result, formatter: await formatting };
    }),
  );
}

/** Each provider's composed keys and their roles, over every scenario's skeleton. */
export function keysByProvider(skeletons: Skeleton[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const skeleton of skeletons) {
    if (skeleton.error) continue;
    const keys = out.get(skeleton.provider) ?? new Map<string, string>();
    for (const [key, resource] of Object.entries(skeleton.resources)) keys.set(key, resource.role);
    out.set(skeleton.provider, keys);
  }
  return out;
}

/** A committed outline golden as a stand-in, when it is one drift can read. */
export function outlineFromGolden(text: string | undefined): Outline | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = parse(text) as unknown;
    return isObject(parsed) && parsed.outline === OUTLINE_VERSION ? (parsed as unknown as Outline) : undefined;
  } catch {
    return undefined;
  }
}

export interface SourceJudgement {
  project: Project;
  outlined: OutlinedSource[];
  /** Every skeleton of the run and of its stand-ins: where composed keys get their roles. */
  skeletons: Skeleton[];
  /** The committed outline golden of a provider. */
  golden: (provider: string) => string | undefined;
  /** Providers the run did not render, whose outline goldens stand in for them. */
  others: string[];
}

export function judgeProjectSources({ project, outlined, skeletons, golden, others }: SourceJudgement): Finding[] {
  const keys = keysByProvider(skeletons);
  const root = (adapter: Adapter) => path.relative(project.config.root, adapter.source?.root ?? adapter.function.cwd) || '.';
  const providers: OutlinedProvider[] = outlined.map(({ adapter, result, formatter }) => ({
    provider: adapter.name,
    root: root(adapter),
    result,
    formatter,
    golden: golden(adapter.name),
    keys: keys.get(adapter.name) ?? new Map(),
  }));
  const standIns = others.flatMap((provider) => {
    const outline = outlineFromGolden(golden(provider));
    return outline ? [{ provider, outline, keys: keys.get(provider) ?? new Map<string, string>() }] : [];
  });
  return judgeSources({ outlined: providers, standIns });
}
