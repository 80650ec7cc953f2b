import { CONTRACT_ROLES } from '../../roles/catalog.js';
import type { ResourceSkeleton, Skeleton } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import { sortedSet, type RenderedFamily, type RoleContext } from './family.js';

/** What a role's resources read (Secrets) and which composed resource they select or reference. */

const EXTRACTOR = 'src/facets/rendered/resourceLinks.ts';

const META: readonly FacetMeta[] = [
  { id: 'reads', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The Secrets and keys the role\'s resources read.', compares: 'Templated Secret name/key pairs.', example: '[{xr}-kubeconfig-{hash}/kubeconfig]', fix: 'Read the kubeconfig Secret and key the cluster writes.', extractor: EXTRACTOR },
  { id: 'selects', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Which composed resource the role\'s resources select or reference: the cluster a node pool attaches to.', compares: 'The contract roles (beside the cloud\'s own network and subnet) of the composed resources it selects: a `<field>Selector` with `matchControllerRef` (a resource of the kind the field names, else the one other kind of its API group) or `matchLabels`, or a `<field>Ref` by name.', example: '[cluster]', fix: 'Select the resource the others select (e.g. `clusterIdSelector: {matchControllerRef: true}`), or the pool attaches to no cluster.', extractor: EXTRACTOR },
];

const NETWORKING: ReadonlySet<string> = new Set(['network', 'subnet']);

/** The contract roles, beside the cloud's own networking, that a role's resources select or reference. */
function selectedRoles(skeleton: Skeleton, resources: readonly ResourceSkeleton[]): string[] {
  const roles = resources.flatMap((r) => (r.selects ?? []).map((key) => skeleton.resources[key]?.role ?? key));
  return [...new Set(roles.filter((role) => CONTRACT_ROLES.has(role) && !NETWORKING.has(role)))].sort();
}

function role({ skeleton, role, composed }: RoleContext) {
  if (!composed) return [];
  return [
    { subject: role, facet: 'reads', value: sortedSet(composed.resources.flatMap((r) => r.reads ?? [])) },
    // By the selected resource's contract role: which network or subnet a cloud wires its resources to is its own topology.
    { subject: role, facet: 'selects', value: selectedRoles(skeleton, composed.resources) },
  ];
}

export const WIRING: RenderedFamily = { meta: META, role };
