import type { Skeleton } from '../../skeleton/types.js';
import { kubeconfigWiring } from '../../skeleton/wiring.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily } from './family.js';

/** Which role writes the kubeconfig Secret the status names, and which roles read it. */

const EXTRACTOR = 'src/facets/rendered/kubeconfig.ts';

const META: readonly FacetMeta[] = [
  { id: 'writer', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The role that writes the kubeconfig Secret.', compares: 'The writer\'s role.', example: 'cluster', fix: 'Write the kubeconfig from the same role.', extractor: EXTRACTOR },
  { id: 'readers', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The roles that read the kubeconfig Secret.', compares: 'Reader roles, sorted.', example: '[provider-config-helm, provider-config-kubernetes]', fix: 'Read the kubeconfig from both ProviderConfigs.', extractor: EXTRACTOR },
];

function cell(skeleton: Skeleton) {
  const { writers, readers } = kubeconfigWiring(skeleton);
  return [
    { subject: 'kubeconfig', facet: 'writer', value: writers[0]?.[1].role ?? null },
    { subject: 'kubeconfig', facet: 'readers', value: readers.map(([, r]) => r.role).sort() },
  ];
}

export const KUBECONFIG: RenderedFamily = { meta: META, cell };
