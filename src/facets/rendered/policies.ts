import type { FacetMeta } from '../meta.js';
import { distinct, type RenderedFamily, type RoleContext } from './family.js';

/** The policies Crossplane applies a role's resources under. */

const EXTRACTOR = 'src/facets/rendered/policies.ts';

const META: readonly FacetMeta[] = [
  { id: 'management-policies', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The managementPolicies of the role\'s resources.', compares: 'Distinct policy lists.', example: '[[Observe, Create, Update, LateInitialize]]', fix: 'Use the same management policies (in-cluster objects never include Delete).', extractor: EXTRACTOR },
  { id: 'readiness-policy', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The readiness policy of the role\'s Objects.', compares: 'Distinct readiness policies.', example: '[SuccessfulCreate]', fix: 'Use the same readiness policy.', extractor: EXTRACTOR },
];

function role({ role, composed }: RoleContext) {
  if (!composed) return [];
  return [
    { subject: role, facet: 'management-policies', value: distinct(composed.resources.map((r) => r.managementPolicies ?? null)) },
    { subject: role, facet: 'readiness-policy', value: distinct(composed.resources.map((r) => r.readinessPolicy ?? null)) },
  ];
}

export const POLICIES: RenderedFamily = { meta: META, role };
