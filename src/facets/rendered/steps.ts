import type { FacetMeta } from '../meta.js';
import type { RenderedFamily, RoleContext } from './family.js';

/** When a role is composed and marked ready, and by what evidence. */

const EXTRACTOR = 'src/facets/rendered/steps.ts';

const META: readonly FacetMeta[] = [
  { id: 'appears', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The step at which the role is first composed.', compares: 'Steps relative to the cluster (the cluster\'s own are absolute): a role held back shows here.', example: '0 (with the cluster)', fix: 'Compose the resource when the others do; gate it only on what the others gate it on.', extractor: EXTRACTOR },
  { id: 'ready', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'The step at which the role is first marked READY_TRUE.', compares: 'Steps relative to the cluster; `never` when a resource is never marked ready.', example: '1 (a step after the cluster)', fix: 'Mark the resource ready as the others do (cloud resources once observed Ready, ProviderConfigs and Objects on compose).', extractor: EXTRACTOR },
  { id: 'ready-by', class: 'behavioral', source: 'skeleton', scope: 'role', description: 'What makes the role ready: being composed, or being observed Ready.', compares: 'The set of ready-by kinds over the role\'s resources.', example: '[observed]', fix: 'Derive readiness from the same evidence as the others.', extractor: EXTRACTOR },
];

function role({ skeleton, role, composed }: RoleContext) {
  if (!composed) return [];
  const { resources } = composed;
  // Steps are compared relative to the cluster, except the cluster's own, which are absolute: a
  // provider that holds its cluster back shows there.
  const cluster = role === 'cluster' ? undefined : Object.values(skeleton.resources).find((resource) => resource.role === 'cluster');
  const relative = (step: number | null, base: number | null | undefined) => (step === null ? null : base === null || base === undefined ? step : step - base);
  return [
    { subject: role, facet: 'appears', value: Math.min(...resources.map((r) => relative(r.appears, cluster?.appears) ?? 0)) },
    { subject: role, facet: 'ready', value: resources.some((r) => r.ready === null) ? null : Math.min(...resources.map((r) => relative(r.ready, cluster?.ready) ?? 0)) },
    { subject: role, facet: 'ready-by', value: [...new Set(resources.map((r) => r.readyBy))].sort() },
  ];
}

export const STEPS: RenderedFamily = { meta: META, role };
