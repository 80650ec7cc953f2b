import type { FacetMeta } from '../meta.js';
import { distinct, type RenderedFamily, type RoleContext } from './family.js';

/** What an in-cluster or composed-ProviderConfig role applies: cloud APIs differ by nature, these must not. */

const EXTRACTOR = 'src/facets/rendered/inCluster.ts';

const META: readonly FacetMeta[] = [
  { id: 'api', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The apiVersion and kind of an in-cluster or composed-ProviderConfig role.', compares: 'Only roles with no cloud resource: cloud APIs differ by nature.', example: '[kubernetes.m.crossplane.io/v1alpha1 Object]', fix: 'Compose the same API as the others.', extractor: EXTRACTOR },
  { id: 'manifest', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The manifest an in-cluster Object applies.', compares: 'Templated manifests of roles with no cloud resource.', example: '{kind: StorageClass, ...}', fix: 'Apply the same manifest.', extractor: EXTRACTOR },
];

function role({ role, composed }: RoleContext) {
  if (!composed || !composed.resources.every((r) => r.plane !== 'cloud')) return [];
  return [
    { subject: role, facet: 'api', value: distinct(composed.resources.map((r) => `${r.apiVersion} ${r.kind}`)) },
    { subject: role, facet: 'manifest', value: distinct(composed.resources.map((r) => r.manifest ?? null)) },
  ];
}

export const IN_CLUSTER: RenderedFamily = { meta: META, role };
