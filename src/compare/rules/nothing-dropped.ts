import type { Rule } from './types.js';

export const nothingDropped: Rule = {
  id: 'nothing-dropped',
  description: 'With credentials present, the function never drops a composed resource: not while converging, not when a resource turns unready or is deleted.',
  rationale: 'Crossplane deletes what a function stops returning; a resource dropped because another one regressed is infrastructure destroyed by a transient state.',
  check({ skeleton, scenario }) {
    const violations =
      scenario.world.credentials === 'present'
        ? Object.entries(skeleton.resources)
            .filter(([, r]) => r.dropped !== undefined)
            .map(([key, r]) => ({ subject: key, message: `${key} is dropped at step ${r.dropped} while converging` }))
        : [];
    for (const perturbation of skeleton.then) {
      if (perturbation.do === 'remove-credentials') continue; // credentials-loss-drops-nothing covers it
      const after = `${perturbation.do}${perturbation.role ? ` ${perturbation.role}` : ''}`;
      for (const key of perturbation.dropped) violations.push({ subject: key, message: `${key} is dropped after ${after}` });
    }
    return violations;
  },
};
