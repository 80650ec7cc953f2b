import type { CachePolicy } from '../cache/policy.js';
import { applyAccepted, legacyEntries, type AcceptedEntry } from '../compare/acceptance.js';
import { judgePinned } from '../compare/pinned.js';
import { collectFacetValues, judgeFacets } from '../compare/cross.js';
import { cellId, missingGoldenId } from '../compare/golden.js';
import type { Finding } from '../compare/findings.js';
import { groupByCause } from '../compare/grouping.js';
import { withWhere, type SourcePlaces } from '../compare/where.js';
import { candidateConventions, checkLocked, type CandidateConvention, type LockedConvention, type ScenarioFacets } from '../compare/locked.js';
import type { Project } from '../config/types.js';
import path from 'node:path';
import { parseOutlineGolden } from '../goldens/format.js';
import { judgeSources, type OutlinedProvider } from '../compare/sourceStyle.js';
import type { Adapter } from '../config/types.js';
import type { Skeleton } from '../skeleton/types.js';
import type { CellResult } from './cell.js';
import type { OutlinedSource, ShownSource } from './sourcesRun.js';
import type { Outline } from '../outline/types.js';

export interface JudgeInput {
  project: Project;
  /** The run's cells, in matrix order. */
  cells: CellResult[];
  /** Skeletons of providers the run did not render (their committed goldens), by scenario. */
  standIns: ReadonlyMap<string, Skeleton[]>;
  /** Whether the gating analysis ran, so `gatedOn` is comparable. */
  gating: boolean;
  accepted: AcceptedEntry[];
  /** accepted.yaml as findings name it. */
  acceptedFile: string;
  /** Whether --provider or --scenario narrowed the run: staleness of accepted entries is then not judged. */
  filtered: boolean;
  /** Whether a stale entry fails the run (under CI). */
  strict: boolean;
  /** The providers' source, outlined while they rendered: judged for style beside the comparison of behaviour. */
  sources?: SourcesInput;
  /** The conventions the team locked (goldens/conventions.yaml): judged like rules, before accepted entries. */
  locked?: readonly LockedConvention[];
  /**
   * `full`: judge as a full run would, every provider voting alike and every one blamable, the stand-ins
   * included: what the run's providers would do to the others (src/compare/tipped.ts).
   */
  view?: 'full';
}

export interface Judgement {
  findings: Finding[];
  /** Facets every compared provider agrees on (at least three): what the team may lock. */
  candidates: CandidateConvention[];
}

export interface SourcesInput {
  outlined: OutlinedSource[];
  /** The committed outline golden of a provider. */
  golden: (provider: string) => string | undefined;
  /** Providers the run did not render, whose outline goldens stand in for them. */
  others: string[];
  /** The others' source on disk, by provider: where their style examples are shown (sourcesRun.ts `standInPlaces`). */
  shown?: ReadonlyMap<string, ShownSource>;
}

/** A cell whose provider has no golden for its scenario yet: a new provider, judged only against the others. */
const hasNoGolden = (cell: CellResult) => cell.findings.some((finding) => finding.id === missingGoldenId(cellId(cell.provider, cell.scenario)));

/**
 * The run's findings, from its cells' values: each cell's own findings in matrix order, then the
 * comparison across providers scenario by scenario, then the locked conventions, then the accepted
 * entries over all of them; and the candidate conventions the same facets show. Pure: values in,
 * findings out.
 */
export function judgeRun({ project, cells, standIns, gating, accepted, acceptedFile, filtered, strict, sources, locked = [], view }: JudgeInput): Judgement {
  const findings = cells.flatMap((cell) => cell.findings);
  const rendered = new Set(project.adapters.map((adapter) => adapter.name));
  const full = view === 'full';
  const blamable = (finding: Finding) => full || finding.provider === undefined || rendered.has(finding.provider);
  const perScenario: ScenarioFacets[] = [];
  const compared = new Set<string>();
  for (const scenario of project.scenarios) {
    // A filtered run still compares with every provider: the others through their committed goldens,
    // as the established providers whose conventions the rendered ones are judged against.
    const established = standIns.get(scenario.name) ?? [];
    const scenarioCells = cells.filter((cell) => cell.scenario === scenario.name);
    const skeletons = [...scenarioCells.map((cell) => cell.skeleton), ...established];
    const facets = collectFacetValues({ scenario: scenario.name, skeletons, pools: scenario.xr.nodePools.map((pool) => pool.name), ablated: scenario.ablate && gating });
    const newcomers = new Set(scenarioCells.filter(hasNoGolden).map((cell) => cell.provider));
    const across = full ? judgeFacets(scenario.name, facets) : judgeFacets(scenario.name, facets, new Set(established.map((skeleton) => skeleton.provider)), newcomers);
    // Splits blame nobody; divergences count only for the providers this run rendered. A locked
    // facet is judged by its lock alone: the vote on it would only repeat what the lock says.
    const lockedHere = (finding: Finding) => locked.some((convention) => convention.facet === finding.facet && convention.subject === finding.subject && scenario.name in convention.values);
    // A provider that left, joined or broke an accepted split's ways is told so by name; that finding
    // replaces its divergence on the facet, which would say the same less precisely.
    const pinned = judgePinned({ scenario: scenario.name, facets, entries: accepted, judged: (provider) => full || rendered.has(provider), file: acceptedFile }).filter((finding) => !lockedHere(finding));
    const told = new Set(pinned.map((finding) => `${finding.subject}\u0000${finding.facet}\u0000${finding.provider}`));
    const superseded = (finding: Finding) => finding.type === 'divergence' && told.has(`${finding.subject}\u0000${finding.facet}\u0000${finding.provider}`);
    findings.push(...across.filter((finding) => blamable(finding) && !lockedHere(finding) && !superseded(finding)), ...pinned);
    for (const skeleton of skeletons) if (!skeleton.error) compared.add(skeleton.provider);
    perScenario.push({ scenario: scenario.name, facets });
  }
  const providers = [...compared].sort();
  // Locked conventions are judged like rules, whatever the majority does; an accepted entry may hold a provider's exception.
  findings.push(...checkLocked(locked, perScenario, providers).filter(blamable));
  const known = [...cells.map((cell) => cell.skeleton), ...[...standIns.values()].flat()];
  // The providers the run did not render stand in through their outline goldens, read once.
  const outlinesOfOthers = sources ? standInOutlines(sources.others, sources.golden, project.cache) : [];
  if (sources) {
    // Style findings have no scenario: judged once, on every skeleton the run knows.
    findings.push(...judgeProjectSources({ project, outlined: sources.outlined, skeletons: known, golden: sources.golden, standIns: outlinesOfOthers, ...(sources.shown ? { shown: sources.shown } : {}), ...(full ? { everyone: true } : {}) }));
  }
  const candidates = candidateConventions(perScenario, providers);
  // A filtered run cannot tell a stale entry; an entry without ways is reported whatever was rendered.
  const legacy = legacyEntries(accepted, acceptedFile);
  // Entries are matched scenario by scenario (one may name a scenario), then one cause is one finding,
  // which says where its cause is when the provider's source was read.
  const placed = (judged: Finding[]) => withWhere(groupByCause(judged), sourcePlaces(project, sources?.outlined ?? [], known, outlinesOfOthers));
  if (filtered) return { findings: [...placed(applyAccepted(findings, accepted, { strict: false, file: acceptedFile }).filter((finding) => finding.type !== 'accepted-stale')), ...legacy], candidates };
  return { findings: [...placed(applyAccepted(findings, accepted, { strict, file: acceptedFile })), ...legacy], candidates };
}

/** Each provider's composed keys and their roles, over every scenario's skeleton. */
function keysByProvider(skeletons: Skeleton[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const skeleton of skeletons) {
    if (skeleton.error) continue;
    const keys = out.get(skeleton.provider) ?? new Map<string, string>();
    for (const [key, resource] of Object.entries(skeleton.resources)) keys.set(key, resource.role);
    out.set(skeleton.provider, keys);
  }
  return out;
}

interface SourceJudgement {
  project: Project;
  outlined: OutlinedSource[];
  /** Every skeleton of the run and of its stand-ins: where composed keys get their roles. */
  skeletons: Skeleton[];
  /** The committed outline golden of a provider. */
  golden: (provider: string) => string | undefined;
  /** The outline goldens of the providers the run did not render, which stand in for them. */
  standIns: ReadonlyArray<{ provider: string; outline: Outline }>;
  /** The stand-ins' source on disk: where their examples are shown. */
  shown?: ReadonlyMap<string, ShownSource>;
  /** Judge every provider alike and blame any, the stand-ins included (a full run's view). */
  everyone?: true;
}

/** A provider's source root as reports show it: relative to the project root, never absolute. */
export const rootOf = (project: Project, adapter: Adapter) => path.relative(project.config.root, adapter.source?.root ?? adapter.function.cwd).split(path.sep).join('/') || '.';

/**
 * The places of every provider whose source this run read: where its findings' causes are. A provider
 * standing in through its outline golden has no places, but says which function composes what: where a
 * provider that composes a subject under no key the outline sees has its counterpart (compare/where.ts).
 */
function sourcePlaces(project: Project, outlined: readonly OutlinedSource[], skeletons: Skeleton[], standIns: ReadonlyArray<{ provider: string; outline: Outline }>): Map<string, SourcePlaces> {
  const keys = keysByProvider(skeletons);
  const keysOf = (provider: string) => keys.get(provider) ?? new Map<string, string>();
  return new Map([
    ...standIns.map(({ provider, outline }): [string, SourcePlaces] => [provider, { root: '', outline, places: new Map(), keys: keysOf(provider) }]),
    ...outlined.map(({ adapter, result }): [string, SourcePlaces] => [adapter.name, { root: rootOf(project, adapter), outline: result.outline, places: result.places, keys: keysOf(adapter.name) }]),
  ]);
}

/** The outline goldens of the providers a run did not render. */
function standInOutlines(others: readonly string[], golden: (provider: string) => string | undefined, cache: CachePolicy | undefined): Array<{ provider: string; outline: Outline }> {
  return others.flatMap((provider) => {
    const outline = parseOutlineGolden(golden(provider), cache);
    return outline ? [{ provider, outline }] : [];
  });
}

function judgeProjectSources({ project, outlined, skeletons, golden, standIns: others, shown, everyone }: SourceJudgement): Finding[] {
  const keys = keysByProvider(skeletons);
  const root = (adapter: Adapter) => rootOf(project, adapter);
  const providers: OutlinedProvider[] = outlined.map(({ adapter, result, formatter }) => ({
    provider: adapter.name,
    root: root(adapter),
    result,
    formatter,
    golden: golden(adapter.name),
    keys: keys.get(adapter.name) ?? new Map(),
  }));
  const standIns = others.map(({ provider, outline }) => {
    const source = shown?.get(provider);
    return { provider, outline, keys: keys.get(provider) ?? new Map<string, string>(), ...(source ? { shown: { root: root(source.adapter), places: source.places } } : {}) };
  });
  return judgeSources({ outlined: providers, standIns, ...(everyone ? { everyone } : {}) });
}
