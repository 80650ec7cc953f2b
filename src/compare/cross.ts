import { CONTRACT_ROLES, keyPattern } from '../config/roles.js';
import { isInCluster } from '../skeleton/facets.js';
import type { ResourceSkeleton, Skeleton } from '../skeleton/types.js';
import { kubeconfigWiring } from '../skeleton/wiring.js';
import { stableStringify } from '../util/objects.js';
import type { Finding, FindingClass } from './findings.js';

/** One comparable fact of a provider's cell: a role's facet, or a cell-level facet. */
interface Facet {
  subject: string;
  facet: string;
  class: FindingClass;
  /** provider → value; a provider without the subject has no entry. */
  values: Map<string, unknown>;
}


/** A gate made comparable across clouds: `<contract role>.<exists|ready>`, `cloud-resource.<...>`, `cloud-fact`, `credentials`. */
function normalizeGate(gate: string, roles: Map<string, string>): string {
  if (gate === 'credentials') return gate;
  const dot = gate.lastIndexOf('.');
  const key = gate.slice(0, dot);
  const what = gate.slice(dot + 1);
  if (what !== 'exists' && what !== 'ready') return 'cloud-fact';
  const role = roles.get(key) ?? key;
  return `${CONTRACT_ROLES.has(role) ? role : 'cloud-resource'}.${what}`;
}

function rolesOf(skeleton: Skeleton): Map<string, string> {
  return new Map(Object.entries(skeleton.resources).map(([key, resource]) => [key, resource.role]));
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


/** The facts compared for every contract role a provider composes. */
function roleFacets(skeleton: Skeleton, role: string, keys: Array<[string, ResourceSkeleton]>, pools: string[], ablated: boolean): Array<Omit<Facet, 'values'> & { value: unknown }> {
  // Steps are compared relative to the cluster, except the cluster's own, which are absolute: a
  // provider that holds its cluster back shows there.
  const cluster = role === 'cluster' ? undefined : Object.values(skeleton.resources).find((resource) => resource.role === 'cluster');
  const relative = (step: number | null, base: number | null | undefined) => (step === null ? null : base === null || base === undefined ? step : step - base);
  const resources = keys.map(([, resource]) => resource);
  const roles = rolesOf(skeleton);
  const distinct = <T>(values: T[]) => [...new Map(values.map((value) => [stableStringify(value), value])).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => value);
  const facets: Array<Omit<Facet, 'values'> & { value: unknown }> = [
    { subject: role, facet: 'key-pattern', class: 'stylistic', value: [...new Set(keys.map(([key]) => keyPattern(key, pools)))].sort() },
    { subject: role, facet: 'appears', class: 'behavioral', value: Math.min(...resources.map((r) => relative(r.appears, cluster?.appears) ?? 0)) },
    { subject: role, facet: 'ready', class: 'behavioral', value: resources.some((r) => r.ready === null) ? null : Math.min(...resources.map((r) => relative(r.ready, cluster?.ready) ?? 0)) },
    { subject: role, facet: 'ready-by', class: 'behavioral', value: [...new Set(resources.map((r) => r.readyBy))].sort() },
    { subject: role, facet: 'gated-on', class: 'behavioral', value: [...new Set(resources.flatMap((r) => (r.gatedOn ?? []).map((gate) => normalizeGate(gate, roles))))].sort() },
    { subject: role, facet: 'management-policies', class: 'behavioral', value: distinct(resources.map((r) => r.managementPolicies ?? null)) },
    { subject: role, facet: 'readiness-policy', class: 'behavioral', value: distinct(resources.map((r) => r.readinessPolicy ?? null)) },
    { subject: role, facet: 'reads', class: 'behavioral', value: [...new Set(resources.flatMap((r) => r.reads ?? []))].sort() },
    { subject: role, facet: 'labels', class: 'behavioral', value: [...new Set(resources.flatMap((r) => r.labels ?? []))].sort() },
    { subject: role, facet: 'provider-config-ref', class: 'behavioral', value: distinct(resources.map((r) => r.providerConfigRef ?? null)) },
  ];
  // Cloud APIs differ by nature; in-cluster APIs (ProviderConfigs, Objects) must not.
  if (resources.every((r) => isInCluster(r.apiVersion))) {
    facets.push({ subject: role, facet: 'api', class: 'behavioral', value: distinct(resources.map((r) => `${r.apiVersion} ${r.kind}`)) });
    facets.push({ subject: role, facet: 'manifest', class: 'behavioral', value: distinct(resources.map((r) => r.manifest ?? null)) });
  }
  return ablated ? facets : facets.filter((facet) => facet.facet !== 'gated-on');
}

/** The facts compared for every provider's cell as a whole. */
function cellFacets(skeleton: Skeleton): Array<Omit<Facet, 'values'> & { value: unknown }> {
  const { entry: kubeconfig, writers, readers: readerKeys } = kubeconfigWiring(skeleton);
  const readers = readerKeys.map(([, r]) => r.role).sort();
  const roles = rolesOf(skeleton);
  // Cloud-only keys are not matched by name: they count as `cloud-resource`.
  const asRoles = (keys: string[]) => [...new Set(keys.map((key) => roles.get(key) ?? key).map((role) => (CONTRACT_ROLES.has(role) ? role : 'cloud-resource')))].sort();
  const facets: Array<Omit<Facet, 'values'> & { value: unknown }> = [
    { subject: 'converged', facet: 'converged', class: 'behavioral', value: skeleton.converged },
    { subject: 'status', facet: 'status-appears', class: 'behavioral', value: skeleton.status.appears },
    { subject: 'status', facet: 'kubeconfig-entry', class: 'behavioral', value: kubeconfig ? { name: kubeconfig.name, key: kubeconfig.key } : null },
    { subject: 'status', facet: 'identity-entry', class: 'behavioral', value: skeleton.status.secrets.some((entry) => entry.type !== 'Kubeconfig') },
    { subject: 'status', facet: 'cache', class: 'behavioral', value: skeleton.status.cache?.storageClassName ?? null },
    { subject: 'kubeconfig', facet: 'writer', class: 'behavioral', value: writers[0]?.[1].role ?? null },
    { subject: 'kubeconfig', facet: 'readers', class: 'behavioral', value: readers },
    {
      subject: 'requirements',
      facet: 'requirements',
      class: 'behavioral',
      value: Object.values(skeleton.requirements)
        .map((r) => ({ kind: r.kind, select: r.select, satisfied: r.satisfied }))
        .sort((a, b) => (stableStringify(a) < stableStringify(b) ? -1 : 1)),
    },
    { subject: 'events', facet: 'events', class: 'behavioral', value: skeleton.events.map((event) => `${event.severity}: ${event.message}`).sort() },
  ];
  skeleton.then.forEach((perturbation, index) => {
    facets.push({
      subject: `then[${index}] ${perturbation.do}${perturbation.role ? ` ${perturbation.role}` : ''}`,
      facet: 'outcome',
      class: 'behavioral',
      value: {
        dropped: asRoles(perturbation.dropped),
        unmarked: asRoles(perturbation.unmarked),
        statusKept: perturbation.statusKept,
        xrReady: perturbation.xrReady,
        events: perturbation.events.map((event) => `${event.severity}: ${event.message}`).sort(),
      },
    });
  });
  return facets;
}

/** The majority value; the reference provider's value breaks ties, else the smallest in canonical order. */
function consensusOf(values: Map<string, unknown>, texts: Map<string, string>, reference: string | undefined): { value: unknown; text: string; decidedBy: string } {
  const counts = new Map<string, { value: unknown; providers: string[] }>();
  for (const [provider, value] of values) {
    const text = texts.get(provider)!;
    const entry = counts.get(text) ?? { value, providers: [] };
    entry.providers.push(provider);
    counts.set(text, entry);
  }
  const ranked = [...counts].sort(([a, x], [b, y]) => y.providers.length - x.providers.length || (a < b ? -1 : 1));
  const top = ranked[0]!;
  const tied = ranked.filter(([, entry]) => entry.providers.length === top[1].providers.length);
  if (tied.length === 1) return { value: top[1].value, text: top[0], decidedBy: 'the majority' };
  const byReference = tied.find(([, entry]) => reference !== undefined && entry.providers.includes(reference));
  if (byReference) return { value: byReference[1].value, text: byReference[0], decidedBy: `the reference provider (${reference}), on a tie` };
  return { value: top[1].value, text: top[0], decidedBy: 'a tie broken by canonical order (set `reference` in drift.config.yaml)' };
}

/**
 * Lines providers up by role in one scenario and names each provider that differs from the
 * consensus, facet by facet. Pure: skeletons in, findings out.
 */
export interface AcrossInput {
  scenario: string;
  skeletons: Skeleton[];
  pools: string[];
  /** Whether the gating analysis ran on this scenario, so `gatedOn` is meaningful (absent = no gates). */
  ablated: boolean;
  reference?: string;
}

export function compareAcross({ scenario, skeletons, pools, ablated, reference }: AcrossInput): Finding[] {
  const usable = skeletons.filter((skeleton) => !skeleton.error).sort((a, b) => (a.provider < b.provider ? -1 : 1));
  if (usable.length < 2) return [];
  const facets = new Map<string, Facet>();
  const add = (provider: string, facet: Omit<Facet, 'values'> & { value: unknown }) => {
    const id = `${facet.subject}:${facet.facet}`;
    const entry = facets.get(id) ?? { subject: facet.subject, facet: facet.facet, class: facet.class, values: new Map() };
    entry.values.set(provider, facet.value);
    facets.set(id, entry);
  };
  const allRoles = new Set(usable.flatMap((skeleton) => [...byRole(skeleton).keys()]));
  for (const skeleton of usable) {
    const roles = byRole(skeleton);
    for (const role of [...allRoles].sort()) {
      add(skeleton.provider, { subject: role, facet: 'presence', class: 'behavioral', value: roles.has(role) });
      const keys = roles.get(role);
      if (keys) for (const facet of roleFacets(skeleton, role, keys, pools, ablated)) add(skeleton.provider, facet);
    }
    for (const facet of cellFacets(skeleton)) add(skeleton.provider, facet);
  }
  const findings: Finding[] = [];
  for (const facet of facets.values()) {
    if (facet.values.size < 2) continue;
    // Each value's canonical text once: manifests are large, and every facet compares every provider.
    const texts = new Map([...facet.values].map(([provider, value]) => [provider, stableStringify(value)]));
    const consensus = consensusOf(facet.values, texts, reference);
    for (const provider of facet.values.keys()) {
      if (texts.get(provider) === consensus.text) continue;
      findings.push({
        id: `div:${scenario}:${facet.subject}:${facet.facet}:${provider}`,
        type: 'divergence',
        class: facet.class,
        provider,
        scenario,
        subject: facet.subject,
        facet: facet.facet,
        message: `${facet.subject === facet.facet ? facet.subject : `${facet.subject} ${facet.facet}`} differs from ${consensus.decidedBy}`,
        values: Object.fromEntries([...facet.values].sort(([a], [b]) => (a < b ? -1 : 1))),
        consensus: consensus.value,
        hint: `make ${provider} match the others, or accept it with a reason: drift accept '${`div:${scenario}:${facet.subject}:${facet.facet}:${provider}`}' --reason "..."`,
      });
    }
  }
  return findings;
}
