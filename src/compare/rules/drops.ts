import type { Skeleton } from '../../skeleton/types.js';
import type { Violation } from './types.js';

/** Keys a converging world saw the function drop. */
export function convergeDrops(skeleton: Skeleton, when: string): Violation[] {
  return Object.entries(skeleton.resources)
    .filter(([, r]) => r.dropped !== undefined)
    .map(([key, r]) => ({ subject: key, message: `${key} is dropped at step ${r.dropped} ${when}` }));
}

/** The perturbations that take the cloud credentials away or make them unusable: credentials-loss-drops-nothing owns their drops. */
export function losesCredentials(action: string): boolean {
  return action === 'remove-credentials' || action === 'break-credentials';
}

/** Keys the function dropped after the perturbations `which` selects. */
export function perturbationDrops(skeleton: Skeleton, which: (action: string) => boolean): Violation[] {
  return skeleton.then
    .filter((perturbation) => which(perturbation.do))
    .flatMap((perturbation) => {
      const after =
        perturbation.do === 'remove-credentials'
          ? 'the credentials disappear'
          : perturbation.do === 'break-credentials'
            ? 'the credentials become unusable'
            : [perturbation.do, perturbation.role, perturbation.fact].filter(Boolean).join(' ');
      return perturbation.dropped.map((key) => ({ subject: key, message: `${key} is dropped after ${after}` }));
    });
}
