/**
 * Conventions read from the committed goldens, for the commands that work from what the team has
 * reviewed rather than from a fresh render: `drift lock` (what may be locked); and `drift expect`, what
 * `drift diff -p` holds one provider to (the others' conventions, pinned ways, locks, rules, style).
 */
import type { CachePolicy } from '../cache/policy.js';
import path from 'node:path';
import type { FunctionPool } from '../functions/pool.js';
import { collectFacetValues } from '../compare/cross.js';
import { cellId, missingGoldenId } from '../compare/golden.js';
import { acrossRequirements, expectLines, lockedRequirements, ruleRequirements, type ExpectLine } from '../compare/requirements.js';
import { styleRequirements, type StyleSubject } from '../compare/style.js';
import { candidateConventions, type CandidateConvention, type ScenarioFacets } from '../compare/locked.js';
import { selectProject } from '../config/load.js';
import type { Adapter, Project } from '../config/types.js';
import { DriftError } from '../errors.js';
import { loadAccepted } from '../goldens/acceptedStore.js';
import { ConventionStore } from '../goldens/conventionStore.js';
import { parseOutlineGolden } from '../goldens/format.js';
import { GoldenStore } from '../goldens/store.js';
import type { Skeleton } from '../skeleton/types.js';
import type { OnEvent } from './events.js';
import { goldenStateFor } from './goldens.js';
import { diffProject } from './diffRun.js';

/** Every scenario's facets over the committed goldens of `providers`, plus the given fresh skeletons. */
function facetsOf(full: Project, providers: readonly string[], fresh: readonly Skeleton[] = []): { perScenario: ScenarioFacets[]; compared: string[] } {
  const goldens = goldenStateFor(full, GoldenStore.of(full), { providers: [], scenarios: [] });
  const compared = new Set<string>();
  const perScenario = full.scenarios.map((scenario) => {
    const skeletons = [...providers.flatMap((provider) => goldens.standIn(provider, scenario.name) ?? []), ...fresh.filter((skeleton) => skeleton.scenario === scenario.name && !skeleton.error)];
    for (const skeleton of skeletons) compared.add(skeleton.provider);
    return { scenario: scenario.name, facets: collectFacetValues({ scenario: scenario.name, skeletons, pools: scenario.xr.nodePools.map((pool) => pool.name), ablated: scenario.ablate }) };
  });
  return { perScenario, compared: [...compared].sort() };
}

/** The one candidate convention `drift lock <facet> [--subject S]` names, from the committed goldens; refused otherwise. */
export function lockableCandidate(full: Project, facet: string, subject: string | undefined): CandidateConvention {
  const { perScenario, compared } = facetsOf(
    full,
    full.adapters.map((adapter) => adapter.name),
  );
  const candidates = candidateConventions(perScenario, compared).filter((candidate) => candidate.facet === facet && (subject === undefined || candidate.subject === subject));
  if (candidates.length === 0) {
    throw new DriftError(
      `${facet}${subject ? ` of ${subject}` : ''} is not a candidate convention: the goldens of ${compared.join(', ') || 'no provider'} do not all agree on it (or fewer than three providers have goldens). Nothing changed; drift --verbose diff lists the candidates.`,
    );
  }
  if (candidates.length > 1) throw new DriftError(`${facet} is a candidate for several subjects (${candidates.map((c) => c.subject).join(', ')}); pick one with --subject. Nothing changed.`);
  return candidates[0]!;
}

export interface ExpectResult {
  provider: string;
  /** Whether the provider is one of the project's and was rendered, so each line has a status. */
  rendered: boolean;
  lines: ExpectLine[];
  /** What diff says beside its findings (a new provider whose goldens are not written yet). */
  notes: string[];
}

/** Each provider's composed keys and their roles, over every scenario's skeleton: what style facets find composers by. */
function keysOf(skeletons: readonly Skeleton[], provider: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const skeleton of skeletons) if (skeleton.provider === provider && !skeleton.error) for (const [key, resource] of Object.entries(skeleton.resources)) keys.set(key, resource.role);
  return keys;
}

/** The other providers' outline goldens as style subjects, their keys from their goldens. */
function standInSubjects(others: readonly string[], outline: (provider: string) => string | undefined, skeletons: readonly Skeleton[], cache: CachePolicy | undefined): StyleSubject[] {
  return others.flatMap((provider) => {
    const parsed = parseOutlineGolden(outline(provider), cache);
    return parsed ? [{ provider, outline: parsed, places: new Map<string, string>(), root: provider, keys: keysOf(skeletons, provider) }] : [];
  });
}

/**
 * What `drift diff -p NAME` judges, as a target. When `name` is a provider of the project, it is the
 * very diff run (rendered fresh, judged against the others' goldens, the locked conventions, the rules
 * and the others' outlines) and each line's status is that run's verdict; otherwise the requirements
 * are read from the others' goldens alone, without a status. `scenarios` narrows both, as `-s` narrows diff.
 */
export async function expectProject(full: Project, name: string, options: { scenarios?: string[]; onEvent?: OnEvent; pool?: FunctionPool } = {}): Promise<ExpectResult> {
  const { scenarios: only = [], onEvent, pool } = options;
  const others = full.adapters.map((adapter) => adapter.name).filter((provider) => provider !== name);
  if (others.length < 2) throw new DriftError(`drift expect needs at least two other providers with goldens; the project has ${others.length}`);
  const rendered = others.length < full.adapters.length;
  const locked = ConventionStore.of(full).load();
  const accepted = loadAccepted(full);
  const chosen = selectProject(full, [], only).scenarios;
  const scenarios = chosen.map((scenario) => scenario.name);
  const common = [...lockedRequirements(locked, scenarios, name), ...ruleRequirements(scenarios, name)];
  if (!rendered) {
    const goldens = goldenStateFor(full, GoldenStore.of(full), { providers: [], scenarios: [] });
    const { perScenario } = facetsOf(full, others);
    const skeletons = chosen.flatMap((scenario) => others.flatMap((provider) => goldens.standIn(provider, scenario.name) ?? []));
    const requirements = [
      ...perScenario.filter(({ scenario }) => scenarios.includes(scenario)).flatMap(({ scenario, facets }) => acrossRequirements({ scenario, facets, provider: name, newcomer: true, rendered: false, locked, accepted })),
      ...common,
      ...styleRequirements(standInSubjects(others, (provider) => goldens.readOutline(provider), skeletons, full.cache), name, false),
    ];
    return { provider: name, rendered, lines: expectLines({ provider: name, requirements }), notes: [] };
  }
  const project = selectProject(full, [name], only);
  const diff = await diffProject({ full, project, filters: { providers: [name], scenarios: only }, ...(onEvent ? { onEvent } : {}), ...(pool ? { pool } : {}) });
  // A function that cannot start met nothing and failed nothing: drift could not judge it (exit 2, one
  // error), rather than a not-met line per scenario beside rules counted as met on no render.
  const failed = diff.run.providers.find((provider) => provider.error);
  if (failed?.error) throw new DriftError(failed.error);
  // The facets exactly as the judge collected them (pipeline/judge.ts): the fresh cells beside the others' goldens.
  const requirements = [...common];
  const skeletons: Skeleton[] = [];
  for (const scenario of project.scenarios) {
    const cells = diff.run.cells.filter((cell) => cell.scenario === scenario.name);
    const here = [...cells.map((cell) => cell.skeleton), ...others.flatMap((provider) => diff.goldens.standIn(provider, scenario.name) ?? [])];
    skeletons.push(...here);
    const facets = collectFacetValues({ scenario: scenario.name, skeletons: here, pools: scenario.xr.nodePools.map((pool) => pool.name), ablated: scenario.ablate });
    const newcomer = cells.some((cell) => cell.findings.some((finding) => finding.id === missingGoldenId(cellId(cell.provider, cell.scenario))));
    requirements.push(...acrossRequirements({ scenario: scenario.name, facets, provider: name, newcomer, rendered: true, locked, accepted }));
  }
  const root = (adapter: Adapter) => path.relative(full.config.root, adapter.source?.root ?? adapter.function.cwd) || '.';
  const subjects: StyleSubject[] = [
    ...diff.outlined.map(({ adapter, result }) => ({ provider: adapter.name, outline: result.outline, places: result.places, root: root(adapter), keys: keysOf(skeletons, adapter.name) })),
    ...standInSubjects(others, (provider) => diff.goldens.readOutline(provider), skeletons, full.cache),
  ];
  requirements.push(...styleRequirements(subjects, name));
  return { provider: name, rendered, lines: expectLines({ provider: name, requirements, findings: diff.findings }), notes: diff.notes };
}
