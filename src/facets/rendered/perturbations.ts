import { subjectRole } from '../../skeleton/presence.js';
import type { Skeleton } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import { eventLines } from './emittedEvents.js';
import type { RenderedFamily } from './family.js';

/** What each of the scenario's perturbations did to the world, and what the function said. */

const EXTRACTOR = 'src/facets/rendered/perturbations.ts';

const META: readonly FacetMeta[] = [
  { id: 'outcome', class: 'behavioral', source: 'skeleton', scope: 'perturbation', description: 'What a perturbation did to the world.', compares: 'Roles dropped and unmarked, whether status was kept, whether the XR stayed Ready.', example: '{dropped: [], unmarked: [], statusKept: true, xrReady: false}', fix: 'Never drop what exists when credentials go; fall back to observed state.', extractor: EXTRACTOR },
  { id: 'outcome-events', class: 'behavioral', source: 'skeleton', scope: 'perturbation', description: 'What the function said after a perturbation.', compares: 'Severity and templated message.', example: '[Normal: Waiting for {cloud} ClusterProviderConfig default]', fix: 'Say what it waits for, as the others do.', extractor: EXTRACTOR },
];

function cell(skeleton: Skeleton) {
  // Keys that play no contract role are not matched by name: they count by plane (`cloud-resource`, ...).
  const asRoles = (keys: string[]) => [...new Set(keys.map((key) => subjectRole(skeleton, key)))].sort();
  return skeleton.then.flatMap((perturbation, index) => {
    const subject = `then[${index}] ${[perturbation.do, perturbation.role, perturbation.fact].filter(Boolean).join(' ')}`;
    // What it did to the world apart from what it said: a provider that only words it differently
    // must not make one that drops resources look like one more opinion.
    return [
      { subject, facet: 'outcome', value: { dropped: asRoles(perturbation.dropped), unmarked: asRoles(perturbation.unmarked), statusKept: perturbation.statusKept, xrReady: perturbation.xrReady } },
      { subject, facet: 'outcome-events', value: eventLines(perturbation.events) },
    ];
  });
}

export const PERTURBATIONS: RenderedFamily = { meta: META, cell };
