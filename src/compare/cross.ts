import { CONTRACT_ROLES, keyPattern } from '../roles/catalog.js';
import { presenceOf, rolesPresent, subjectRole } from '../skeleton/presence.js';
import type { ResourceSkeleton, SecretEntry, Skeleton, UnknownFacet } from '../skeleton/types.js';
import { kubeconfigWiring } from '../skeleton/wiring.js';
import { facetMeta } from '../facets/registry.js';
import { stableStringify } from '../util/objects.js';
import { judge, type ValueGroup, type Verdict } from './consensus.js';
import { INTENT_FIELDS } from './intentCoverage.js';
import { facetValueInWords } from './summary.js';
import type { Finding, FindingClass } from './findings.js';
import { divergenceId, splitId } from './findingId.js';

/** One provider's value of a facet, before the providers are lined up; its class is the registry's. */
type FacetValue = Omit<Facet, 'values' | 'class'> & { value: unknown };

/** One comparable fact of a provider's cell: a role's facet, or a cell-level facet. */
export interface Facet {
  subject: string;
  facet: string;
  class: FindingClass;
  /** provider → value; a provider without the subject has no entry. */
  values: Map<string, unknown>;
}

/** A gate made comparable across clouds: `<contract role>.<exists|ready>`, `cloud-resource.<...>`, `cloud-fact`, `credentials`. */
function normalizeGate(gate: string, skeleton: Skeleton): string {
  if (gate === 'credentials') return gate;
  const dot = gate.lastIndexOf('.');
  const key = gate.slice(0, dot);
  const what = gate.slice(dot + 1);
  if (what !== 'exists' && what !== 'ready') return 'cloud-fact';
  return `${subjectRole(skeleton, key)}.${what}`;
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

/** Separators inside a key: where a stem ends and a per-resource suffix begins. */
const KEY_SEPARATORS = ['-', '_', '.'];

/**
 * How a role's keys are named: pools abstracted (keyPattern), and a role composed as several
 * resources beside its pools (EKS's `subnet-a` and `subnet-b`, one per zone) named by the stem they
 * share before their suffixes. How many resources play a role is behaviour (`instances`); only the
 * naming is style, so a cloud that needs two subnets where the others need one names them alike.
 * Keys with no common stem keep their patterns: `np-{pool}` beside `nodepool-{pool}` still differ.
 */
function keyNaming(patterns: readonly string[]): string[] {
  if (patterns.length < 2) return [...patterns];
  let shared = patterns[0]!;
  for (const pattern of patterns) while (!pattern.startsWith(shared)) shared = shared.slice(0, -1);
  // The stem ends at the last separator every key shares: `subnet-` of `subnet-a`, `subnet-b`.
  const cut = Math.max(...KEY_SEPARATORS.map((separator) => shared.lastIndexOf(separator)));
  return cut > 0 && patterns.every((pattern) => pattern.length > cut + 1) ? [shared.slice(0, cut)] : [...patterns];
}

/** The contract roles, beside the cloud's own networking, that a role's resources select or reference. */
function selectedRoles(skeleton: Skeleton, resources: readonly ResourceSkeleton[]): string[] {
  const roles = resources.flatMap((r) => (r.selects ?? []).map((key) => skeleton.resources[key]?.role ?? key));
  return [...new Set(roles.filter((role) => CONTRACT_ROLES.has(role) && !NETWORKING.has(role)))].sort();
}
const NETWORKING: ReadonlySet<string> = new Set(['network', 'subnet']);

/** The facts compared for every contract role a provider composes. */
function roleFacets(skeleton: Skeleton, role: string, keys: Array<[string, ResourceSkeleton]>, pools: string[], ablated: boolean): Array<FacetValue> {
  // Steps are compared relative to the cluster, except the cluster's own, which are absolute: a
  // provider that holds its cluster back shows there.
  const cluster = role === 'cluster' ? undefined : Object.values(skeleton.resources).find((resource) => resource.role === 'cluster');
  const relative = (step: number | null, base: number | null | undefined) => (step === null ? null : base === null || base === undefined ? step : step - base);
  const resources = keys.map(([, resource]) => resource);
  const distinct = <T>(values: T[]) => [...new Map(values.map((value) => [stableStringify(value), value])).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => value);
  const patterns = [...new Set(keys.map(([key]) => keyPattern(key, pools)))].sort();
  const facets: Array<FacetValue> = [
    { subject: role, facet: 'key-pattern', value: keyNaming(patterns) },
    { subject: role, facet: 'instances', value: patterns.length },
    { subject: role, facet: 'appears', value: Math.min(...resources.map((r) => relative(r.appears, cluster?.appears) ?? 0)) },
    { subject: role, facet: 'ready', value: resources.some((r) => r.ready === null) ? null : Math.min(...resources.map((r) => relative(r.ready, cluster?.ready) ?? 0)) },
    { subject: role, facet: 'ready-by', value: [...new Set(resources.map((r) => r.readyBy))].sort() },
    { subject: role, facet: 'gated-on', value: [...new Set(resources.flatMap((r) => (r.gatedOn ?? []).map((gate) => normalizeGate(gate, skeleton))))].sort() },
    // Which intent values reach the pool's resources (in INTENT_FIELDS order): one it ignores is lost.
    { subject: role, facet: 'intent', value: INTENT_FIELDS.filter((field) => resources.some((r) => r.intent?.includes(field))) },
    { subject: role, facet: 'management-policies', value: distinct(resources.map((r) => r.managementPolicies ?? null)) },
    { subject: role, facet: 'readiness-policy', value: distinct(resources.map((r) => r.readinessPolicy ?? null)) },
    { subject: role, facet: 'reads', value: [...new Set(resources.flatMap((r) => r.reads ?? []))].sort() },
    // Which composed resource it selects or references (a pool its cluster), by that resource's contract
    // role: which network or subnet a cloud wires its resources to is its own topology.
    { subject: role, facet: 'selects', value: selectedRoles(skeleton, resources) },
    { subject: role, facet: 'labels', value: [...new Set(resources.flatMap((r) => r.labels ?? []))].sort() },
    { subject: role, facet: 'provider-config-ref', value: distinct(resources.map((r) => r.providerConfigRef ?? null)) },
    // How the composed object itself is dressed: conventions, not behavior.
    { subject: role, facet: 'metadata-namespace', value: distinct(resources.map((r) => r.metadata?.namespace ?? null)) },
    { subject: role, facet: 'metadata-labels', value: [...new Set(resources.flatMap((r) => r.metadata?.labels ?? []))].sort() },
    { subject: role, facet: 'metadata-annotations', value: [...new Set(resources.flatMap((r) => r.metadata?.annotations ?? []))].sort() },
    // What another resource selects or references, and Crossplane's own annotations, act: behavior (docs/precision.md).
    { subject: role, facet: 'selected-labels', value: [...new Set(resources.flatMap((r) => r.metadata?.selectedLabels ?? []))].sort() },
    { subject: role, facet: 'behavior-annotations', value: [...new Set(resources.flatMap((r) => r.metadata?.behaviorAnnotations ?? []))].sort() },
  ];
  // Cloud APIs differ by nature; in-cluster APIs (Objects, Releases) and composed ProviderConfigs must not.
  if (resources.every((r) => r.plane !== 'cloud')) {
    facets.push({ subject: role, facet: 'api', value: distinct(resources.map((r) => `${r.apiVersion} ${r.kind}`)) });
    facets.push({ subject: role, facet: 'manifest', value: distinct(resources.map((r) => r.manifest ?? null)) });
  }
  // Gates and intent coverage come from the ablation runs, which only ablated scenarios have; intent
  // only for the pool role, the one the contract says the intent reaches.
  // A facet the cell's errored analysis left unknown takes no part (its error finding stands alone).
  return facets.filter((facet) => !skeleton.unknown?.includes(facet.facet as UnknownFacet) && (facet.facet === 'gated-on' ? ablated : facet.facet === 'intent' ? ablated && role === 'node-pool' : true));
}

/**
 * `ready` (a fixpoint with the XR Ready), `stalled` (a fixpoint with the XR not Ready) or
 * `oscillating` (no fixpoint within maxSteps: its answers keep changing).
 */
function convergence(skeleton: Skeleton): 'ready' | 'stalled' | 'oscillating' {
  if (!skeleton.converged) return 'oscillating';
  return skeleton.converged.xrReady ? 'ready' : 'stalled';
}

/** Which of a status.secrets entry's fields are set, e.g. `type,name,key`. */
function entryShape(entry: SecretEntry): string {
  return (['type', 'name', 'key'] as const).filter((field) => entry[field] !== '').join(',');
}

/** The facts compared for every provider's cell as a whole. */
function cellFacets(skeleton: Skeleton): Array<FacetValue> {
  const { entry: kubeconfig, writers, readers: readerKeys } = kubeconfigWiring(skeleton);
  const readers = readerKeys.map(([, r]) => r.role).sort();
  const identities = skeleton.status.secrets.filter((entry) => entry.type !== 'Kubeconfig');
  const requirements = Object.values(skeleton.requirements)
    .map((r) => ({ kind: r.kind, select: r.select, satisfied: r.satisfied }))
    .sort((a, b) => (stableStringify(a) < stableStringify(b) ? -1 : 1));
  // Keys that play no contract role are not matched by name: they count by plane (`cloud-resource`, ...).
  const asRoles = (keys: string[]) => [...new Set(keys.map((key) => subjectRole(skeleton, key)))].sort();
  const facets: Array<FacetValue> = [
    // Whether and how it converges, not after how many steps: a cloud may wait for more facts.
    { subject: 'converged', facet: 'converged', value: convergence(skeleton) },
    { subject: 'status', facet: 'status-appears', value: skeleton.status.appears },
    { subject: 'status', facet: 'kubeconfig-entry', value: kubeconfig ? { name: kubeconfig.name, key: kubeconfig.key } : null },
    { subject: 'status', facet: 'identity-entry', value: identities.length > 0 },
    // Fields beside secrets and cache are part of the XR's API: what consumers can read.
    { subject: 'status', facet: 'fields', value: skeleton.status.fields ?? [] },
    { subject: 'status', facet: 'cache', value: skeleton.status.cache?.storageClassName ?? null },
    { subject: 'kubeconfig', facet: 'writer', value: writers[0]?.[1].role ?? null },
    { subject: 'kubeconfig', facet: 'readers', value: readers },
    // Whether it requires anything at all; what it requires is compared only among those that do.
    { subject: 'requirements', facet: 'requires', value: [...new Set(requirements.map((r) => r.kind))].sort() },
    { subject: 'events', facet: 'events', value: skeleton.events.map((event) => `${event.severity}: ${event.message}`).sort() },
  ];
  if (requirements.length) facets.push({ subject: 'requirements', facet: 'requirements', value: requirements });
  // Identity types and Secret names are the cloud's own; what an entry carries is comparable. Only
  // providers that publish one take part: absence is identity-entry's.
  if (identities.length) facets.push({ subject: 'status', facet: 'identity-shape', value: identities.map(entryShape).sort() });
  skeleton.then.forEach((perturbation, index) => {
    const subject = `then[${index}] ${[perturbation.do, perturbation.role, perturbation.fact].filter(Boolean).join(' ')}`;
    // What it did to the world apart from what it said: a provider that only words it differently
    // must not make one that drops resources look like one more opinion.
    facets.push({
      subject,
      facet: 'outcome',
      value: { dropped: asRoles(perturbation.dropped), unmarked: asRoles(perturbation.unmarked), statusKept: perturbation.statusKept, xrReady: perturbation.xrReady },
    });
    facets.push({ subject, facet: 'outcome-events', value: perturbation.events.map((event) => `${event.severity}: ${event.message}`).sort() });
  });
  return facets;
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

/** Every facet of one scenario with each provider's value: what conventions, splits and locked conventions judge. */
export function collectFacetValues({ skeletons, pools, ablated }: Omit<AcrossInput, 'established' | 'newcomers'>): Facet[] {
  const usable = skeletons.filter((skeleton) => !skeleton.error).sort((a, b) => (a.provider < b.provider ? -1 : 1));
  if (usable.length < 2) return [];
  const facets = new Map<string, Facet>();
  const add = (provider: string, facet: FacetValue) => {
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
      add(skeleton.provider, { subject: role, facet: 'presence', value: presenceOf(skeleton, role) });
      const keys = roles.get(role);
      if (keys) for (const facet of roleFacets(skeleton, role, keys, pools, ablated)) add(skeleton.provider, facet);
      // An inline pool has no key of its own (no key facets), but its node labels are its role's.
      const inlineLabels = keys ? undefined : skeleton.inlineLabels?.[role];
      if (inlineLabels) add(skeleton.provider, { subject: role, facet: 'labels', value: inlineLabels });
    }
    for (const facet of cellFacets(skeleton)) add(skeleton.provider, facet);
  }
  return [...facets.values()];
}
