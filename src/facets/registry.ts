/**
 * Every facet drift compares across providers, with its meta: what conventions, splits, locks and
 * accepted entries are about. Rules describe themselves in src/compare/rules/; facets do here, and
 * the reports, the generated contract and docs/facets.md take their words from this table.
 */
import { STYLE_FACETS } from './styleFacets.js';

/** Where a facet's value is read: the rendered skeleton, or the provider's source outline. */
export type FacetSource = 'skeleton' | 'outline';

/** What one value of the facet belongs to. */
export type FacetScope = 'role' | 'cell' | 'perturbation' | 'source';

/** A facet's finding class: rules and locks are `contract`; a facet is what behaves or what reads alike. */
export type FacetClass = 'behavioral' | 'stylistic';

export interface FacetMeta {
  id: string;
  class: FacetClass;
  source: FacetSource;
  scope: FacetScope;
  /** One sentence: what the facet is. */
  description: string;
  /** What is compared between providers, and what is left out on purpose. */
  compares: string;
  /** A value as it appears in a report. */
  example: string;
  /** What to do about a provider that differs. */
  fix: string;
  /** The module whose code extracts the value. */
  extractor: string;
}

const ROLE = 'src/compare/cross.ts (roleFacets)';
const CELL = 'src/compare/cross.ts (cellFacets)';

const RENDERED: readonly FacetMeta[] = [
  { id: 'presence', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Whether a provider plays a contract role, and how.', compares: '`composed` (a resource of its own), `inline` (inside another composed resource, e.g. a system pool in the cluster) or `absent`; absence is a value only here.', example: 'composed', fix: 'Compose the role as the others do, or accept the difference with the cloud reason.', extractor: 'src/skeleton/presence.ts' },
  { id: 'key-pattern', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The composition-resource-name keys a role is composed under.', compares: 'Keys with pool names abstracted (`nodepool-{pool}`); of a role composed as several resources beside its pools, the stem their keys share (`subnet` of `subnet-a`, `subnet-b`: how many is `instances`); inline pools take no part.', example: '[nodepool-{pool}]', fix: 'Rename the key to the convention (a renamed key deletes and recreates the resource: migrate on purpose).', extractor: ROLE },
  { id: 'instances', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'How many composed resources play the role, for each pool in the pool roles.', compares: 'The number of distinct key patterns (pools abstracted) of the role\'s resources: one regional subnet, or one per zone.', example: '1', fix: 'Compose as many resources for the role as the others, or accept the difference with the cloud reason.', extractor: ROLE },
  { id: 'appears', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The step at which the role is first composed.', compares: 'Steps relative to the cluster (the cluster\'s own are absolute): a role held back shows here.', example: '0 (with the cluster)', fix: 'Compose the resource when the others do; gate it only on what the others gate it on.', extractor: ROLE },
  { id: 'ready', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The step at which the role is first marked READY_TRUE.', compares: 'Steps relative to the cluster; `never` when a resource is never marked ready.', example: '1 (a step after the cluster)', fix: 'Mark the resource ready as the others do (cloud resources once observed Ready, ProviderConfigs and Objects on compose).', extractor: ROLE },
  { id: 'ready-by', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'What makes the role ready: being composed, or being observed Ready.', compares: 'The set of ready-by kinds over the role\'s resources.', example: '[observed]', fix: 'Derive readiness from the same evidence as the others.', extractor: ROLE },
  { id: 'gated-on', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'What the role waits for before it is composed, found by ablation.', compares: 'Gates (a resource\'s readiness or existence, a cloud fact, the credentials) normalized to roles; only in ablated scenarios, and only for cells whose ablations all ran.', example: '[service-account.email]', fix: 'Gate the resource on the same facts as the others, and keep it once it exists.', extractor: ROLE },
  { id: 'intent', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Which scenario intent values reach the node pools\' resources.', compares: 'The intent fields (nodeCount, minNodeCount, maxNodeCount, gpu, gpuCount, zones) whose change changes the pool\'s rendered body; node-pool only.', example: '[nodeCount, minNodeCount, maxNodeCount, gpu, gpuCount, zones]', fix: 'Place every intent field in the pool\'s body, as the adapter maps it.', extractor: ROLE },
  { id: 'management-policies', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The managementPolicies of the role\'s resources.', compares: 'Distinct policy lists.', example: '[[Observe, Create, Update, LateInitialize]]', fix: 'Use the same management policies (in-cluster objects never include Delete).', extractor: ROLE },
  { id: 'readiness-policy', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The readiness policy of the role\'s Objects.', compares: 'Distinct readiness policies.', example: '[SuccessfulCreate]', fix: 'Use the same readiness policy.', extractor: ROLE },
  { id: 'reads', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The Secrets and keys the role\'s resources read.', compares: 'Templated Secret name/key pairs.', example: '[{xr}-kubeconfig-{hash}/kubeconfig]', fix: 'Read the kubeconfig Secret and key the cluster writes.', extractor: ROLE },
  { id: 'selects', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Which composed resource the role\'s resources select or reference: the cluster a node pool attaches to.', compares: 'The contract roles (beside the cloud\'s own network and subnet) of the composed resources it selects: a `<field>Selector` with `matchControllerRef` (a resource of the kind the field names, else the one other kind of its API group) or `matchLabels`, or a `<field>Ref` by name.', example: '[cluster]', fix: 'Select the resource the others select (e.g. `clusterIdSelector: {matchControllerRef: true}`), or the pool attaches to no cluster.', extractor: 'src/skeleton/selects.ts' },
  { id: 'labels', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The Kubernetes node label keys a pool carries.', compares: 'Label keys found where the pool\'s own labels (the contract\'s `modelplane.ai/` keys) sit in its body, or under a hinted field (`labels`, `nodeLabels`, the adapter\'s `labelFields`); an inline pool\'s labels count for its pool role, never for its host.', example: '[modelplane.ai/gpu, modelplane.ai/pool]', fix: 'Label the nodes with the contract\'s keys.', extractor: ROLE },
  { id: 'provider-config-ref', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The ProviderConfig the role\'s resources are applied through.', compares: 'Kind and templated name of providerConfigRef.', example: '[{kind: ClusterProviderConfig, name: default}]', fix: 'Reference the XR\'s credentials (spec.credentials) as the others do.', extractor: ROLE },
  { id: 'metadata-namespace', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The namespace a composed object is given.', compares: 'Distinct metadata.namespace values.', example: '[{namespace}]', fix: 'Set the namespace as the others do.', extractor: ROLE },
  { id: 'metadata-labels', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The label keys on the composed object itself.', compares: 'Label keys, except those another composed resource selects (behavior, not style).', example: '[modelplane.ai/cluster]', fix: 'Label the object as the others do.', extractor: ROLE },
  { id: 'metadata-annotations', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The annotation keys on the composed object itself.', compares: 'Annotation keys, except Crossplane\'s own `crossplane.io/` ones and those another resource references (behavior, not style).', example: '[]', fix: 'Annotate the object as the others do.', extractor: ROLE },
  { id: 'selected-labels', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The label keys on the composed object that another composed resource selects or references.', compares: 'Label keys of metadata.labels that a `matchLabels` of another resource in the same desired state matches, or that its body names: a selector depends on them.', example: '[modelplane.ai/zone]', fix: 'Label the object with what the selecting resource matches, as the others do.', extractor: ROLE },
  { id: 'behavior-annotations', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The annotation keys on the composed object that act: Crossplane\'s own and those another resource references.', compares: 'Annotation keys in the `crossplane.io/` namespace (e.g. `crossplane.io/external-name`, which names the cloud resource) or named in another composed resource\'s body.', example: '[crossplane.io/external-name]', fix: 'Set the annotation as the others do, or accept it with the cloud reason (a name limit).', extractor: ROLE },
  { id: 'api', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The apiVersion and kind of an in-cluster or composed-ProviderConfig role.', compares: 'Only roles with no cloud resource: cloud APIs differ by nature.', example: '[kubernetes.m.crossplane.io/v1alpha1 Object]', fix: 'Compose the same API as the others.', extractor: ROLE },
  { id: 'manifest', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The manifest an in-cluster Object applies.', compares: 'Templated manifests of roles with no cloud resource.', example: '{kind: StorageClass, ...}', fix: 'Apply the same manifest.', extractor: ROLE },
  { id: 'converged', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Whether and how the scenario converges.', compares: '`ready`, `stalled` or `oscillating`, not after how many steps.', example: 'ready', fix: 'Make the function reach a fixpoint with the XR Ready when the world is.', extractor: CELL },
  { id: 'status-appears', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The step at which the XR\'s status is first published.', compares: 'The absolute step.', example: '0', fix: 'Publish status when the others do.', extractor: CELL },
  { id: 'kubeconfig-entry', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The Kubeconfig entry of status.secrets.', compares: 'Its templated name and key.', example: '{name: {xr}-kubeconfig-{hash}, key: kubeconfig}', fix: 'Publish the entry naming the Secret a composed resource writes.', extractor: CELL },
  { id: 'identity-entry', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Whether status.secrets carries an identity entry beside the kubeconfig.', compares: 'true or false.', example: 'true', fix: 'Publish an identity entry when the cloud needs one.', extractor: CELL },
  { id: 'identity-shape', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Which fields an identity entry sets.', compares: 'Only among providers that publish one (absence is identity-entry\'s).', example: '[type,name,key]', fix: 'Set type, name and key.', extractor: CELL },
  { id: 'fields', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The XR status fields beside secrets and cache.', compares: 'Field paths: part of the XR\'s API.', example: '[]', fix: 'Publish the same status fields.', extractor: CELL },
  { id: 'cache', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'status.cache.storageClassName.', compares: 'The published name.', example: 'modelplane-rwx', fix: 'Publish the RWX StorageClass name.', extractor: CELL },
  { id: 'writer', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The role that writes the kubeconfig Secret.', compares: 'The writer\'s role.', example: 'cluster', fix: 'Write the kubeconfig from the same role.', extractor: CELL },
  { id: 'readers', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The roles that read the kubeconfig Secret.', compares: 'Reader roles, sorted.', example: '[provider-config-helm, provider-config-kubernetes]', fix: 'Read the kubeconfig from both ProviderConfigs.', extractor: CELL },
  { id: 'requires', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The kinds the function asks Crossplane to fetch.', compares: 'Required kinds, sorted; empty when it requires nothing.', example: '[ClusterProviderConfig]', fix: 'Require what the others require.', extractor: CELL },
  { id: 'requirements', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The shape of each requirement.', compares: 'Kind, selector shape and whether it was satisfied; only among providers that require something.', example: '[{kind: ClusterProviderConfig, select: {name: default}}]', fix: 'Select the XR\'s credentials the same way (a namespaced kind carries the namespace).', extractor: CELL },
  { id: 'events', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The events the function emits.', compares: 'Severity and templated message.', example: '[Normal: Waiting for {cloud} ClusterProviderConfig default]', fix: 'Emit the same events with the same wording.', extractor: CELL },
  { id: 'outcome', class: 'behavioral', source: 'skeleton', scope: 'perturbation', description: 'What a perturbation did to the world.', compares: 'Roles dropped and unmarked, whether status was kept, whether the XR stayed Ready.', example: '{dropped: [], unmarked: [], statusKept: true, xrReady: false}', fix: 'Never drop what exists when credentials go; fall back to observed state.', extractor: CELL },
  { id: 'outcome-events', class: 'behavioral', source: 'skeleton', scope: 'perturbation', description: 'What the function said after a perturbation.', compares: 'Severity and templated message.', example: '[Normal: Waiting for {cloud} ClusterProviderConfig default]', fix: 'Say what it waits for, as the others do.', extractor: CELL },
];

/** The source facets: their meta lives beside the style judge's other words (styleFacets.ts). */
const SOURCE: readonly FacetMeta[] = STYLE_FACETS.map((facet) => ({ ...facet, source: 'outline', scope: 'source', extractor: 'src/compare/style.ts' }));

export const FACETS: readonly FacetMeta[] = [...RENDERED, ...SOURCE];

const BY_ID = new Map(FACETS.map((facet) => [facet.id, facet]));

/** A facet's meta; an unregistered id is a bug in drift, not in the user's input. */
export function facetMeta(id: string): FacetMeta {
  const meta = BY_ID.get(id);
  if (!meta) throw new Error(`facet ${id} is not in the registry (src/facets/registry.ts)`);
  return meta;
}

export function isFacet(id: string): boolean {
  return BY_ID.has(id);
}
