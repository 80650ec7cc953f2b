import { INTENT_FIELDS } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import { unknownIn, type RenderedFamily, type RoleContext } from './family.js';

/** Which intent values reach the node pools: one a provider ignores is lost. */

const EXTRACTOR = 'src/facets/rendered/intentReach.ts';

const META: readonly FacetMeta[] = [
  { id: 'intent', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'Which scenario intent values reach the node pools\' resources.', compares: 'The intent fields (nodeCount, minNodeCount, maxNodeCount, gpu, gpuCount, zones) whose change changes the pool\'s rendered body; node-pool only.', example: '[nodeCount, minNodeCount, maxNodeCount, gpu, gpuCount, zones]', fix: 'Place every intent field in the pool\'s body, as the adapter maps it.', extractor: EXTRACTOR },
];

function role({ skeleton, role, composed, ablated }: RoleContext) {
  // Intent coverage comes from the probes of ablated scenarios, and only for the pool role, the one
  // the contract says the intent reaches.
  if (!composed || !ablated || role !== 'node-pool' || unknownIn(skeleton, 'intent')) return [];
  // In INTENT_FIELDS order.
  return [{ subject: role, facet: 'intent', value: INTENT_FIELDS.filter((field) => composed.resources.some((r) => r.intent?.includes(field))) }];
}

export const INTENT: RenderedFamily = { meta: META, role };
