import { CONTRACT_ROLES } from '../roles/catalog.js';
import { rolesPresent } from '../skeleton/presence.js';
import type { ResourceSkeleton, Skeleton } from '../skeleton/types.js';
import type { RenderedValue } from '../facets/rendered/family.js';
import { RENDERED_FAMILIES } from '../facets/rendered/renderedFamilies.js';
import { facetMeta } from '../facets/registry.js';
import { stableStringify } from '../util/objects.js';
import { judge, type ValueGroup, type Verdict } from './consensus.js';
import { facetValueInWords } from './summary.js';
import type { Finding, FindingClass } from './findings.js';
import { divergenceId, splitId } from './findingId.js';

/** One comparable fact of a provider's cell: a role's facet, or a cell-level facet. */
export interface Facet {
  subject: string;
  facet: string;
  class: FindingClass;
  /** provider → value; a provider without the subject has no entry. */
  values: Map<string, unknown>;
}

const label = (facet: Facet) => (facet.subject === facet.facet ? facet.subject : `${facet.subject} ${facet.facet}`);

/** What a divergence of `provider` on `facet` says whatever the verdict: its id, facet and everyone's values. */
export function blamed(scenario: string, facet: Facet, provider: string, message: string, hint: (id: string) => string): Finding {
  const id = divergenceId(facet.subject, facet.facet, provider);
  return {
    id,
    type: 'divergence',
    class: facet.class,
    provider,
    scenario,
    subject: facet.subject,
    facet: facet.facet,
    message,
    values: Object.fromEntries([...facet.values].sort(([a], [b]) => (a < b ? -1 : 1))),
    hint: hint(id),
  };
}

function divergence(scenario: string, facet: Facet, texts: Map<string, string>, verdict: Extract<Verdict, { kind: 'convention' }>, provider: string, established: boolean): Finding {
  const { convention } = verdict;
  const whose = `${convention.providers.length} of ${verdict.compared}${established ? ' established' : ''} providers (${convention.providers.join(', ')})`;
  const { hint, ...finding } = blamed(
    scenario,
    facet,
    provider,
    `${label(facet)} differs from the convention of ${whose}`,
    (id) => {
      const words = (value: unknown) => facetValueInWords(facet.subject, facet.facet, value);
      const what = `the convention is ${words(convention.value)}; ${provider} has ${words(facet.values.get(provider))}.`;
      // Ready where the others stall or oscillate: stalling is no fix. A provider composing nothing is
      // Ready with nothing to wait for; what it must do is compose what the contract asks.
      if (facet.facet === 'converged' && facet.values.get(provider) === 'ready' && convention.value !== 'ready') {
        return `${what} ${provider} reports its XR Ready where ${whose} do not: becoming ${words(convention.value)} is no fix. Check that ${provider} composes what the contract asks in this scenario (a function composing nothing is Ready with nothing to wait for), or accept it with a reason: drift accept '${id}' --reason "..."`;
      }
      // Alone against all the others, the fix is in the provider: no accept offered (it stays allowed).
      const alone = convention.providers.length === (established ? verdict.compared : verdict.compared - 1);
      // The real count, never "every other": a provider without the subject in this scenario is no voter.
      return alone ? `${what} ${whose} do it this way and only ${provider} differs: make ${provider} follow it.` : `${what} Make ${provider} follow it, or accept it with a reason: drift accept '${id}' --reason "..."`;
    },
  );
  // The convention's value sits before the hint, where reports have always shown it.
  return { ...finding, consensus: convention.value, hint };
}

/** A newcomer judged with `-p` that follows none of the established providers' ways (see consensus.ts). */
function novelty(scenario: string, facet: Facet, texts: Map<string, string>, verdict: Extract<Verdict, { kind: 'novel' }>, provider: string): Finding {
  // Values in words, summarised structurally (manifests can be long): never cut mid-JSON.
  const words = (value: unknown) => facetValueInWords(facet.subject, facet.facet, value);
  const ways = verdict.ways.map((way) => `${way.providers.join(', ')}: ${words(way.value)}`).join('; ');
  const { hint, ...finding } = blamed(
    scenario,
    facet,
    provider,
    `${label(facet)} follows none of the ${verdict.ways.length} ways of the ${verdict.compared} established providers`,
    (id) => `the established providers do ${ways}; ${provider} has ${words(facet.values.get(provider))}. Make ${provider} follow one of them, or accept it with a reason: drift accept '${id}' --reason "..."`,
  );
  return { ...finding, ways: verdict.ways.map((way) => ({ value: way.value, providers: way.providers })), hint };
}

function split(scenario: string, facet: Facet, groups: ValueGroup[]): Finding {
  const id = splitId(facet.subject, facet.facet);
  return {
    id,
    type: 'split',
    class: facet.class,
    scenario,
    subject: facet.subject,
    facet: facet.facet,
    message: `${label(facet)} has no convention: ${groups.length} groups of ${groups.map((group) => group.providers.length).join('-')} providers`,
    values: Object.fromEntries([...facet.values].sort(([a], [b]) => (a < b ? -1 : 1))),
    groups: groups.map((group) => ({ value: group.value, providers: group.providers })),
    // The groups are in `groups`, which reports print one line each: the hint says only what to do.
    hint: `Decide which is right and align the others, or accept the split with a reason: drift accept '${id}' --reason "..."`,
  };
}

export interface AcrossInput {
  scenario: string;
  skeletons: Skeleton[];
  pools: string[];
  /** Whether the gating analysis ran on this scenario, so `gatedOn` is meaningful (absent = no gates). */
  ablated: boolean;
  /**
   * Providers whose skeletons stand in from their goldens (`drift diff -p P`): they form the
   * conventions, and only the other providers are judged (see consensus.ts).
   */
  established?: ReadonlySet<string>;
  /** Judged providers with no golden of their own for this scenario yet (see consensus.ts). */
  newcomers?: ReadonlySet<string>;
}

/**
 * Lines providers up by role in one scenario and judges every facet: outliers of a convention are
 * divergences blamed on them; a facet without a convention is one split, blamed on nobody. A provider
 * without a role takes part only in that role's presence. Pure: skeletons in, findings out.
 */
export function compareAcross({ scenario, skeletons, pools, ablated, established, newcomers }: AcrossInput): Finding[] {
  return judgeFacets(scenario, collectFacetValues({ scenario, skeletons, pools, ablated }), established, newcomers);
}

/** The divergences and splits of one scenario's facets (collectFacetValues), as compareAcross judges them. */
export function judgeFacets(scenario: string, facets: readonly Facet[], established?: ReadonlySet<string>, newcomers?: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  for (const facet of facets) {
    // Each value's canonical text once: manifests are large, and every facet compares every provider.
    const texts = new Map([...facet.values].map(([provider, value]) => [provider, stableStringify(value)]));
    const verdict = judge(facet.values, texts, established, newcomers);
    if (verdict.kind === 'split' || verdict.kind === 'novel') findings.push(split(scenario, facet, verdict.groups));
    if (verdict.kind === 'convention') for (const provider of verdict.outliers) findings.push(divergence(scenario, facet, texts, verdict, provider, Boolean(established?.size)));
    if (verdict.kind === 'novel') for (const provider of verdict.outliers) findings.push(novelty(scenario, facet, texts, verdict, provider));
  }
  return findings;
}

/** Keys per contract role, e.g. node-pool → [nodepool-gpu]. */
function byRole(skeleton: Skeleton): Map<string, Array<[string, ResourceSkeleton]>> {
  const out = new Map<string, Array<[string, ResourceSkeleton]>>();
  for (const [key, resource] of Object.entries(skeleton.resources)) {
    if (!CONTRACT_ROLES.has(resource.role)) continue;
    const list = out.get(resource.role) ?? [];
    list.push([key, resource]);
    out.set(resource.role, list);
  }
  return out;
}

/**
 * Every facet of one scenario with each provider's value, as the facet families (src/facets/rendered/)
 * extract them: what conventions, splits and locked conventions judge.
 */
export function collectFacetValues({ skeletons, pools, ablated }: Omit<AcrossInput, 'established' | 'newcomers'>): Facet[] {
  const usable = skeletons.filter((skeleton) => !skeleton.error).sort((a, b) => (a.provider < b.provider ? -1 : 1));
  if (usable.length < 2) return [];
  const facets = new Map<string, Facet>();
  const add = (provider: string, facet: RenderedValue) => {
    const id = `${facet.subject}:${facet.facet}`;
    // The class a facet is judged in is written once, in the registry.
    const entry = facets.get(id) ?? { subject: facet.subject, facet: facet.facet, class: facetMeta(facet.facet).class, values: new Map() };
    entry.values.set(provider, facet.value);
    facets.set(id, entry);
  };
  const allRoles = new Set(usable.flatMap(rolesPresent));
  for (const skeleton of usable) {
    const roles = byRole(skeleton);
    for (const role of [...allRoles].sort()) {
      const keys = roles.get(role);
      const composed = keys ? { keys, resources: keys.map(([, resource]) => resource) } : undefined;
      for (const family of RENDERED_FAMILIES) for (const value of family.role?.({ skeleton, role, composed, pools, ablated }) ?? []) add(skeleton.provider, value);
    }
    for (const family of RENDERED_FAMILIES) for (const value of family.cell?.(skeleton) ?? []) add(skeleton.provider, value);
  }
  return [...facets.values()];
}
