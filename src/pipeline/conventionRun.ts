/**
 * Conventions read from the committed goldens, for the commands that work from what the team has
 * reviewed rather than from a fresh render: `drift lock` (what may be locked) and `drift expect`
 * (what the other providers require of one).
 */
import { collectFacets } from '../compare/cross.js';
import { expectationsFor, type Expectation } from '../compare/expectations.js';
import { candidateConventions, type CandidateConvention, type ScenarioFacets } from '../compare/locked.js';
import { selectProject } from '../config/load.js';
import type { Project } from '../config/types.js';
import { DriftError } from '../errors.js';
import { loadAccepted } from '../goldens/acceptedStore.js';
import { ConventionStore } from '../goldens/conventionStore.js';
import { GoldenStore } from '../goldens/store.js';
import type { Skeleton } from '../skeleton/types.js';
import type { OnEvent } from './events.js';
import { goldenStateFor } from './goldens.js';
import { runProject } from './run.js';

/** Every scenario's facets over the committed goldens of `providers`, plus the given fresh skeletons. */
function facetsOf(full: Project, providers: readonly string[], fresh: readonly Skeleton[] = []): { perScenario: ScenarioFacets[]; compared: string[] } {
  const goldens = goldenStateFor(full, GoldenStore.of(full), { providers: [], scenarios: [] });
  const compared = new Set<string>();
  const perScenario = full.scenarios.map((scenario) => {
    const skeletons = [...providers.flatMap((provider) => goldens.standIn(provider, scenario.name) ?? []), ...fresh.filter((skeleton) => skeleton.scenario === scenario.name && !skeleton.error)];
    for (const skeleton of skeletons) compared.add(skeleton.provider);
    return { scenario: scenario.name, facets: collectFacets({ scenario: scenario.name, skeletons, pools: scenario.xr.nodePools.map((pool) => pool.name), ablated: scenario.ablate }) };
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
  expectations: Expectation[];
}

/**
 * What the other providers' conventions (from their goldens; `name` takes no part in the vote) and
 * the locked conventions require of `name`; when `name` is a provider of the project it is rendered
 * fresh (it may have no goldens yet) and each line is met, not met or accepted.
 */
export async function expectProject(full: Project, name: string, onEvent?: OnEvent): Promise<ExpectResult> {
  const others = full.adapters.map((adapter) => adapter.name).filter((provider) => provider !== name);
  if (others.length < 2) throw new DriftError(`drift expect needs at least two other providers with goldens; the project has ${others.length}`);
  const rendered = others.length < full.adapters.length;
  const fresh = rendered ? (await runProject(selectProject(full, [name]), onEvent ? { onEvent } : {})).cells.map((cell) => cell.skeleton) : [];
  const { perScenario } = facetsOf(full, others, fresh);
  const expectations = expectationsFor(name, perScenario, ConventionStore.of(full).load(), rendered, loadAccepted(full));
  return { provider: name, rendered, expectations };
}
