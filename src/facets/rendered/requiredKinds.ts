import type { Skeleton } from '../../skeleton/types.js';
import { stableStringify } from '../../util/objects.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily, RenderedValue } from './family.js';

/** What the function asks Crossplane to fetch. */

const EXTRACTOR = 'src/facets/rendered/requiredKinds.ts';

const META: readonly FacetMeta[] = [
  { id: 'requires', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The kinds the function asks Crossplane to fetch.', compares: 'Required kinds, sorted; empty when it requires nothing.', example: '[ClusterProviderConfig]', fix: 'Require what the others require.', extractor: EXTRACTOR },
  { id: 'requirements', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'The shape of each requirement.', compares: 'Kind, selector shape and whether it was satisfied; only among providers that require something.', example: '[{kind: ClusterProviderConfig, select: {name: default}}]', fix: 'Select the XR\'s credentials the same way (a namespaced kind carries the namespace).', extractor: EXTRACTOR },
];

function cell(skeleton: Skeleton): RenderedValue[] {
  const requirements = Object.values(skeleton.requirements)
    .map((r) => ({ kind: r.kind, select: r.select, satisfied: r.satisfied }))
    .sort((a, b) => (stableStringify(a) < stableStringify(b) ? -1 : 1));
  // Whether it requires anything at all; what it requires is compared only among those that do.
  const values: RenderedValue[] = [{ subject: 'requirements', facet: 'requires', value: [...new Set(requirements.map((r) => r.kind))].sort() }];
  if (requirements.length) values.push({ subject: 'requirements', facet: 'requirements', value: requirements });
  return values;
}

export const REQUIREMENTS: RenderedFamily = { meta: META, cell };
