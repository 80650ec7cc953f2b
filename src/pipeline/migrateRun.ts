/**
 * Pinning the ways of accepted splits from a render: `drift migrate` for every facet-wide entry
 * that names no ways yet, `drift accept` for one provider joining or leaving a pinned entry.
 */
import { isLegacy, matches, type AcceptedEntry, type PinnedWay } from '../compare/acceptance.js';
import { collectFacetValues, judgeFacets, type Facet } from '../compare/cross.js';
import type { Finding } from '../compare/findings.js';
import { idToken } from '../compare/findingId.js';
import { pinnedScenarios, waysOf } from '../compare/pinned.js';
import { selectProject } from '../config/load.js';
import type { Project } from '../config/types.js';
import { compareText } from '../util/objects.js';
import type { OnEvent } from './events.js';
import { goldenStateFor } from './goldens.js';
import { GoldenStore } from '../goldens/store.js';
import type { Skeleton } from '../skeleton/types.js';
import { runProject } from './run.js';

interface ScenarioFacets {
  scenario: string;
  facets: Facet[];
}

function facetsOf(project: Project, skeletons: readonly Skeleton[]): ScenarioFacets[] {
  return project.scenarios.map((scenario) => ({
    scenario: scenario.name,
    facets: collectFacetValues({ scenario: scenario.name, skeletons: skeletons.filter((skeleton) => skeleton.scenario === scenario.name), pools: scenario.xr.nodePools.map((pool) => pool.name), ablated: scenario.ablate }),
  }));
}

/** What one legacy entry becomes: entries with ways (one per subject it accepted), or itself when it accepts nothing today. */
export interface Migration {
  index: number;
  entries: AcceptedEntry[];
}

/** The entry as it will be written: its fields in the file's order, ways before the reason. */
const pinned = (entry: AcceptedEntry, subject: string, ways: PinnedWay[]): AcceptedEntry => ({
  facet: entry.facet!,
  subject,
  ...(entry.scenario !== undefined ? { scenario: entry.scenario } : {}),
  ways,
  reason: entry.reason,
});

/** One configuration's render, as a full run of it sees its providers. */
export interface RenderedProject {
  project: Project;
  skeletons: readonly Skeleton[];
}

/**
 * Each legacy entry's ways, from the findings it accepts in a full run over `skeletons`: every
 * scenario and subject where a split or divergence of its facet falls to it (not to an entry before
 * it) is pinned with the ways the providers take there. Several configurations sharing the list
 * (`drift migrate -c a -c b`) pin the ways of all of them, so the entry accepts under each what it
 * accepted before.
 */
export function migrations(rendered: readonly RenderedProject[], entries: readonly AcceptedEntry[]): Migration[] {
  const scopes = new Map<number, Map<string, Array<{ scenario: string; values: Facet['values'] }>>>();
  for (const { project, skeletons } of rendered) {
    for (const { scenario, facets } of facetsOf(project, skeletons)) {
      const findings: Finding[] = judgeFacets(scenario, facets);
      for (const facet of facets) {
        const own = findings.filter((finding) => finding.subject === facet.subject && finding.facet === facet.facet);
        const taken = new Set(own.map((finding) => entries.findIndex((entry) => matches(entry, finding))));
        for (const index of taken) {
          if (index < 0 || !isLegacy(entries[index]!)) continue;
          const bySubject = scopes.get(index) ?? new Map();
          bySubject.set(facet.subject, [...(bySubject.get(facet.subject) ?? []), { scenario, values: facet.values }]);
          scopes.set(index, bySubject);
        }
      }
    }
  }
  return entries.flatMap((entry, index) => {
    if (!isLegacy(entry)) return [];
    const bySubject = scopes.get(index);
    if (!bySubject) return [{ index, entries: [entry] }];
    return [{ index, entries: [...bySubject].sort(([a], [b]) => compareText(a, b)).map(([subject, instances]) => pinned(entry, subject, waysOf(subject, entry.facet!, instances))) }];
  });
}

/** `drift migrate`: every provider of every configuration rendered now, as a full run of each sees them. */
export async function migrateProject(full: Project | readonly Project[], entries: readonly AcceptedEntry[], onEvent?: OnEvent): Promise<{ migrations: Migration[]; errors: string[] }> {
  const rendered: RenderedProject[] = [];
  const errors: string[] = [];
  for (const project of Array.isArray(full) ? full : [full as Project]) {
    const run = await runProject(project, onEvent ? { onEvent } : {});
    errors.push(...run.providers.flatMap((provider) => (provider.error ? [provider.error] : [])), ...run.cells.flatMap((cell) => (cell.skeleton.error ? [`${cell.provider}/${cell.scenario}: ${cell.skeleton.error}`] : [])));
    rendered.push({ project, skeletons: run.cells.map((cell) => cell.skeleton) });
  }
  return { migrations: migrations(rendered, entries), errors };
}

/** The entry that pins the ways of a subject's facet (in any scenario), or -1; `subject` as an id spells it, or as the facet names it. */
export function pinnedEntryFor(entries: readonly AcceptedEntry[], subject: string, facet: string): number {
  return entries.findIndex((entry) => entry.ways !== undefined && entry.facet === facet && (entry.subject === undefined || entry.subject === subject || idToken(entry.subject) === idToken(subject)));
}

/**
 * `drift accept` of a provider that left, joined or broke a pinned entry's ways: `provider` rendered
 * now, the others as their goldens say, and the entry's ways recomputed over its scenarios and
 * `scope` (by default every scenario of the project, so the accept covers every scenario the finding
 * shows in, also one the entry never pinned) with `provider` holding what it renders, its own reason
 * beside the way it holds. The other providers' own reasons stay with them.
 */
export async function repinProvider(full: Project, entry: AcceptedEntry, provider: string, reason: string, onEvent?: OnEvent, scope: readonly string[] = full.scenarios.map((scenario) => scenario.name)): Promise<AcceptedEntry> {
  const scenarios = [...new Set([...pinnedScenarios(entry), ...scope.filter((scenario) => entry.scenario === undefined || entry.scenario === scenario)])].sort(compareText);
  const project = selectProject(full, [provider], scenarios);
  const run = await runProject(project, onEvent ? { onEvent } : {});
  const failed = run.providers.find((one) => one.error)?.error ?? run.cells.find((cell) => cell.skeleton.error)?.skeleton.error;
  if (failed) throw new Error(`${provider} did not render, so its way cannot be pinned: ${failed}`);
  const goldens = goldenStateFor(full, GoldenStore.of(full), { providers: [], scenarios: [] });
  const others = full.adapters.map((adapter) => adapter.name).filter((name) => name !== provider);
  const skeletons = [...run.cells.map((cell) => cell.skeleton), ...scenarios.flatMap((scenario) => others.flatMap((name) => goldens.standIn(name, scenario) ?? []))];
  const instances = facetsOf(project, skeletons).flatMap(({ scenario, facets }) =>
    facets.filter((facet) => facet.facet === entry.facet && (entry.subject === undefined || entry.subject === facet.subject)).map((facet) => ({ scenario, values: facet.values })),
  );
  const own = new Map<string, string>((entry.ways ?? []).flatMap((way) => Object.entries(way.reasons ?? {})));
  own.set(provider, reason);
  const ways = waysOf(entry.subject!, entry.facet!, instances).map((way) => {
    const reasons = Object.fromEntries(way.providers.filter((name) => own.has(name)).map((name) => [name, own.get(name)!]));
    return Object.keys(reasons).length ? { ...way, reasons } : way;
  });
  return { ...entry, ways };
}
