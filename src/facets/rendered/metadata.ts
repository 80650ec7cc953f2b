import type { FacetMeta } from '../meta.js';
import { distinct, sortedSet, type RenderedFamily, type RoleContext } from './family.js';

/**
 * How the composed object itself is dressed (conventions, not behavior), apart from the labels and
 * annotations that act: what another resource selects or references, and Crossplane's own
 * annotations, are behavior (docs/precision.md).
 */

const EXTRACTOR = 'src/facets/rendered/metadata.ts';

const META: readonly FacetMeta[] = [
  { id: 'metadata-namespace', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The namespace a composed object is given.', compares: 'Distinct metadata.namespace values.', example: '[{namespace}]', fix: 'Set the namespace as the others do.', extractor: EXTRACTOR },
  { id: 'metadata-labels', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The label keys on the composed object itself.', compares: 'Label keys, except those another composed resource selects (behavior, not style).', example: '[modelplane.ai/cluster]', fix: 'Label the object as the others do.', extractor: EXTRACTOR },
  { id: 'metadata-annotations', class: 'stylistic', source: 'skeleton', scope: 'role', description: 'The annotation keys on the composed object itself.', compares: 'Annotation keys, except Crossplane\'s own `crossplane.io/` ones and those another resource references (behavior, not style).', example: '[]', fix: 'Annotate the object as the others do.', extractor: EXTRACTOR },
  { id: 'selected-labels', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The label keys on the composed object that another composed resource selects or references.', compares: 'Label keys of metadata.labels that a `matchLabels` of another resource in the same desired state matches, or that its body names: a selector depends on them.', example: '[modelplane.ai/zone]', fix: 'Label the object with what the selecting resource matches, as the others do.', extractor: EXTRACTOR },
  { id: 'behavior-annotations', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The annotation keys on the composed object that act: Crossplane\'s own and those another resource references.', compares: 'Annotation keys in the `crossplane.io/` namespace (e.g. `crossplane.io/external-name`, which names the cloud resource) or named in another composed resource\'s body.', example: '[crossplane.io/external-name]', fix: 'Set the annotation as the others do, or accept it with the cloud reason (a name limit).', extractor: EXTRACTOR },
];

function role({ role, composed }: RoleContext) {
  if (!composed) return [];
  const { resources } = composed;
  return [
    { subject: role, facet: 'metadata-namespace', value: distinct(resources.map((r) => r.metadata?.namespace ?? null)) },
    { subject: role, facet: 'metadata-labels', value: sortedSet(resources.flatMap((r) => r.metadata?.labels ?? [])) },
    { subject: role, facet: 'metadata-annotations', value: sortedSet(resources.flatMap((r) => r.metadata?.annotations ?? [])) },
    { subject: role, facet: 'selected-labels', value: sortedSet(resources.flatMap((r) => r.metadata?.selectedLabels ?? [])) },
    { subject: role, facet: 'behavior-annotations', value: sortedSet(resources.flatMap((r) => r.metadata?.behaviorAnnotations ?? [])) },
  ];
}

export const METADATA: RenderedFamily = { meta: META, role };
