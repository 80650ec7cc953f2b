import type { Rule } from './types.js';

export const readinessCoverage: Rule = {
  id: 'readiness-coverage',
  description: 'When the world reports everything Ready (credentials present), every composed resource is marked READY_TRUE.',
  rationale: 'Crossplane counts a resource ready only if the function says READY_TRUE; one never marked keeps the XR unready forever.',
  check({ skeleton, scenario }) {
    if (scenario.world.ready !== 'all' || scenario.world.credentials !== 'present' || !skeleton.converged) return [];
    return Object.entries(skeleton.resources)
      .filter(([, resource]) => resource.ready === null && resource.dropped === undefined)
      .map(([key]) => ({ subject: key, message: `${key} is never marked READY_TRUE although the world reports it Ready` }));
  },
};
