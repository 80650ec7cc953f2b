import type { FacetMeta } from '../meta.js';
import { sortedSet, type RenderedFamily, type RoleContext } from './family.js';

/** The Kubernetes node labels a pool carries, composed or inline. */

const EXTRACTOR = 'src/facets/rendered/nodeLabels.ts';

const META: readonly FacetMeta[] = [
  { id: 'labels', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The Kubernetes node label keys a pool carries.', compares: 'Label keys found where the pool\'s own labels (the contract\'s `modelplane.ai/` keys) sit in its body, or under a hinted field (`labels`, `nodeLabels`, the adapter\'s `labelFields`); an inline pool\'s labels count for its pool role, never for its host.', example: '[modelplane.ai/gpu, modelplane.ai/pool]', fix: 'Label the nodes with the contract\'s keys.', extractor: EXTRACTOR },
];

function role({ skeleton, role, composed }: RoleContext) {
  if (composed) return [{ subject: role, facet: 'labels', value: sortedSet(composed.resources.flatMap((r) => r.labels ?? [])) }];
  // An inline pool has no key of its own (no key facets), but its node labels are its role's.
  const inline = skeleton.inlineLabels?.[role];
  return inline ? [{ subject: role, facet: 'labels', value: inline }] : [];
}

export const NODE_LABELS: RenderedFamily = { meta: META, role };
