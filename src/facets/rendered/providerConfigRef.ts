import type { FacetMeta } from '../meta.js';
import { distinct, type RenderedFamily, type RoleContext } from './family.js';

/** The credentials a role's resources are applied through. */

const EXTRACTOR = 'src/facets/rendered/providerConfigRef.ts';

const META: readonly FacetMeta[] = [
  { id: 'provider-config-ref', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The ProviderConfig the role\'s resources are applied through.', compares: 'Kind and templated name of providerConfigRef.', example: '[{kind: ClusterProviderConfig, name: default}]', fix: 'Reference the XR\'s credentials (spec.credentials) as the others do.', extractor: EXTRACTOR },
];

function role({ role, composed }: RoleContext) {
  return composed ? [{ subject: role, facet: 'provider-config-ref', value: distinct(composed.resources.map((r) => r.providerConfigRef ?? null)) }] : [];
}

export const PROVIDER_CONFIG_REF: RenderedFamily = { meta: META, role };
