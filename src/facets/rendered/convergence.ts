import type { Skeleton } from '../../skeleton/types.js';
import type { FacetMeta } from '../meta.js';
import type { RenderedFamily } from './family.js';

/** Whether and how a cell converges, not after how many steps: a cloud may wait for more facts. */

const EXTRACTOR = 'src/facets/rendered/convergence.ts';

const META: readonly FacetMeta[] = [
  { id: 'converged', class: 'behavioral', source: 'skeleton', scope: 'cell', description: 'Whether and how the scenario converges.', compares: '`ready`, `stalled` or `oscillating`, not after how many steps.', example: 'ready', fix: 'Make the function reach a fixpoint with the XR Ready when the world is.', extractor: EXTRACTOR },
];

/**
 * `ready` (a fixpoint with the XR Ready), `stalled` (a fixpoint with the XR not Ready) or
 * `oscillating` (no fixpoint within maxSteps: its answers keep changing).
 */
function convergence(skeleton: Skeleton): 'ready' | 'stalled' | 'oscillating' {
  if (!skeleton.converged) return 'oscillating';
  return skeleton.converged.xrReady ? 'ready' : 'stalled';
}

export const CONVERGENCE: RenderedFamily = { meta: META, cell: (skeleton) => [{ subject: 'converged', facet: 'converged', value: convergence(skeleton) }] };
