import type { Skeleton } from '../../skeleton/types.js';
import type { Violation } from './types.js';

/** Keys a converging world saw the function drop. */
export function convergeDrops(skeleton: Skeleton, when: string): Violation[] {
  return Object.entries(skeleton.resources)
    .filter(([, r]) => r.dropped !== undefined)
    .map(([key, r]) => ({ subject: key, message: `${key} is dropped at step ${r.dropped} ${when}` }));
}

/** Keys the function dropped after the perturbations `which` selects. */
export function perturbationDrops(skeleton: Skeleton, which: (action: string) => boolean): Violation[] {
  return skeleton.then
    .filter((perturbation) => which(perturbation.do))
    .flatMap((perturbation) => {
      const after = perturbation.do === 'remove-credentials' ? 'the credentials disappear' : `${perturbation.do}${perturbation.role ? ` ${perturbation.role}` : ''}`;
      return perturbation.dropped.map((key) => ({ subject: key, message: `${key} is dropped after ${after}` }));
    });
}
