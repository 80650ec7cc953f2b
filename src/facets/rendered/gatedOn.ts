import { subjectRole } from '../../skeleton/presence.js';
import type { Skeleton } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import { sortedSet, unknownIn, type RenderedFamily, type RoleContext } from './family.js';

/** What a role waits for before it is composed, as the ablation runs found it. */

const EXTRACTOR = 'src/facets/rendered/gatedOn.ts';

const META: readonly FacetMeta[] = [
  { id: 'gated-on', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'What the role waits for before it is composed, found by ablation.', compares: 'Gates (a resource\'s readiness or existence, a cloud fact, the credentials) normalized to roles; only in ablated scenarios, and only for cells whose ablations all ran.', example: '[service-account.email]', fix: 'Gate the resource on the same facts as the others, and keep it once it exists.', extractor: EXTRACTOR },
];

/** A gate made comparable across clouds: `<contract role>.<exists|ready>`, `cloud-resource.<...>`, `cloud-fact`, `credentials`. */
function normalizeGate(gate: string, skeleton: Skeleton): string {
  if (gate === 'credentials') return gate;
  const dot = gate.lastIndexOf('.');
  const key = gate.slice(0, dot);
  const what = gate.slice(dot + 1);
  if (what !== 'exists' && what !== 'ready') return 'cloud-fact';
  return `${subjectRole(skeleton, key)}.${what}`;
}

function role({ skeleton, role, composed, ablated }: RoleContext) {
  // Gates come from the ablation runs, which only ablated scenarios have.
  if (!composed || !ablated || unknownIn(skeleton, 'gated-on')) return [];
  return [{ subject: role, facet: 'gated-on', value: sortedSet(composed.resources.flatMap((r) => (r.gatedOn ?? []).map((gate) => normalizeGate(gate, skeleton)))) }];
}

export const GATES: RenderedFamily = { meta: META, role };
