/**
 * What explains one finding: its facet's or rule's meta, the ways providers take with who holds each,
 * and for each way (and for the finding itself) a place in a provider's source with an excerpt. One
 * answer, shared by the MCP server's explain tool and `drift explain`.
 */
import path from 'node:path';
import { selectProject } from '../config/load.js';
import type { Project } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import { RULE_METAS } from '../compare/rules/index.js';
import { causeOf, placeOfSubject, splitPlace, type Detail, type SourcePlaces } from '../compare/where.js';
import { facetMeta, isFacet } from '../facets/registry.js';
import type { GoldenState } from '../goldens/state.js';
import { parserFor } from '../outline/grammar.js';
import { buildOutline } from '../outline/outline.js';
import { goldenStateFor, goldensOf } from '../pipeline/goldens.js';
import { rootOf } from '../pipeline/judge.js';
import { readProjectSources } from '../pipeline/sourcesRun.js';
import { stableStringify } from '../util/objects.js';
import { excerptAt } from './projectFiles.js';

/** Where a way is followed in a provider's source. */
export interface Place {
  provider: string;
  file: string;
  line: number;
  excerpt?: string;
}

export interface Explanation {
  id: string;
  type: Finding['type'];
  provider?: string;
  subject: string;
  facet?: string;
  message: string;
  hint: string;
  where?: Place;
  meta?: Record<string, unknown>;
  ways: Array<{ value: unknown; providers: string[]; place?: Place }>;
}

/** The explanation of `finding`, from a diff of `project`: its meta, its ways and their places. */
export async function explainFinding(project: Project, finding: Finding): Promise<Explanation> {
  const meta = finding.facet ? (isFacet(finding.facet) ? facetMeta(finding.facet) : RULE_METAS.find((rule) => rule.id === finding.facet)) : undefined;
  const ways = waysOf(finding);
  const cause = causeOf(finding);
  const placeOf = placer(project);
  // Each way placed in one of its providers, the finding's own provider last so another's code shows the convention.
  // Each way placed by its own value against the others' (the label it writes, the gate it waits on).
  const against = (way: { value: unknown }) => ways.find((other) => other !== way)?.value;
  const placed = await Promise.all(
    ways.map(async (way) => ({ ...way, place: await placeOf(cause.subject, cause.facet, [...way.providers].sort((a, b) => Number(a === finding.provider) - Number(b === finding.provider)), cause.facet === finding.facet ? { own: way.value, convention: against(way) } : cause.detail) })),
  );
  // The place the judge named (compare/where.ts: the code composing the subject, for this facet), else the composer's def.
  const where = (finding.where?.[0] ? placeAt(project.config.root, finding.provider, finding.where[0]) : undefined) ?? (finding.provider ? await placeOf(cause.subject, cause.facet, [finding.provider], cause.detail) : undefined);
  return {
    id: finding.id,
    type: finding.type,
    ...(finding.provider ? { provider: finding.provider } : {}),
    subject: finding.subject,
    ...(finding.facet ? { facet: finding.facet } : {}),
    message: finding.message,
    hint: finding.hint,
    ...(where ? { where } : {}),
    ...(meta ? { meta: { ...meta } } : {}),
    ways: placed.map(({ value, providers, place }) => ({ value: summarised(value), providers, ...(place ? { place } : {}) })),
  };
}

/**
 * Where the first of `providers` whose source is readable composes `subject` for `facet`: the same
 * place a finding's `where` names (compare/where.ts), its composed keys' roles from its goldens.
 * Each provider's source is read (its cached outline, else parsed) and its goldens once per placer.
 */
function placer(project: Project): (subject: string, facet: string | undefined, providers: readonly string[], detail?: Detail) => Promise<Place | undefined> {
  const goldens = goldenStateFor(project, goldensOf(project), { providers: [], scenarios: [] });
  const sources = new Map<string, Promise<SourcePlaces | undefined>>();
  const sourceOf = (name: string) => {
    let source = sources.get(name);
    if (!source) sources.set(name, (source = sourcePlaces(project, name, goldens)));
    return source;
  };
  return async (subject, facet, providers, detail) => {
    for (const name of providers) {
      const source = await sourceOf(name);
      const place = source ? placeOfSubject(source, subject, facet, detail) : undefined;
      if (place) return placeAt(project.config.root, name, place);
    }
    return undefined;
  };
}

async function sourcePlaces(project: Project, name: string, goldens: GoldenState): Promise<SourcePlaces | undefined> {
  const adapter = project.adapters.find((a) => a.name === name);
  if (!adapter?.source) return undefined;
  const [read] = await readProjectSources(selectProject(project, [name]));
  if (!read?.sources.length) return undefined;
  const { outline, places } = read.cached?.result ?? buildOutline(name, read.sources, await parserFor(path.extname(read.sources[0]!.path)));
  const keys = new Map<string, string>();
  for (const scenario of project.scenarios) for (const [key, resource] of Object.entries(goldens.standIn(name, scenario.name)?.resources ?? {})) keys.set(key, resource.role);
  return { root: rootOf(project, adapter), outline, places, keys };
}

/** A split's or novel finding's ways as drift found them; a divergence's two: the convention and the provider's own. */
function waysOf(finding: Finding): Array<{ value: unknown; providers: string[] }> {
  if (finding.groups?.length) return finding.groups;
  if (finding.ways?.length) return [...finding.ways, ...(finding.provider && finding.values ? [{ value: finding.values[finding.provider], providers: [finding.provider] }] : [])];
  if (!finding.values) return [];
  const byValue = new Map<string, { value: unknown; providers: string[] }>();
  for (const [provider, value] of Object.entries(finding.values)) {
    const key = stableStringify(value ?? null);
    const way = byValue.get(key) ?? { value, providers: [] };
    way.providers.push(provider);
    byValue.set(key, way);
  }
  // The convention first, then the provider's own way.
  return [...byValue.values()].sort((a, b) => Number(a.providers.includes(finding.provider ?? '')) - Number(b.providers.includes(finding.provider ?? '')) || b.providers.length - a.providers.length);
}

/** A finding's `where` entry (`file:line`, relative to the project root) as a place with its excerpt. */
function placeAt(root: string, provider: string | undefined, where: string): Place | undefined {
  const [file, line] = splitPlace(where);
  if (!provider || !Number.isInteger(line)) return undefined;
  const excerpt = excerptAt(root, path.join(root, file), line);
  return { provider, file, line, ...(excerpt ? { excerpt } : {}) };
}

/** A long value summarised by its shape, never cut mid-JSON: an explanation is read, and diff carries the value whole. */
function summarised(value: unknown): unknown {
  if (stableStringify(value ?? null).length <= 600) return value;
  if (Array.isArray(value)) return { summary: `a list of ${value.length} items; the first three`, first: value.slice(0, 3).map(summarised) };
  if (value !== null && typeof value === 'object') return { summary: 'an object with the keys', keys: Object.keys(value).sort() };
  return `${String(value).slice(0, 600)}… (${String(value).length} characters)`;
}
